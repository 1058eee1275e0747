import { ActionIcon, Group, Skeleton, UnstyledButton } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

import type { CategoryOut } from '../../../shared/api/generated/types.gen';
import { updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import { categoriesQueryOptions } from '../../../shared/dictionaries/queries';
import { CategoryIcon } from './CategoryIcon';
import classes from './CategoryStrip.module.css';

/** Spec §9 "Navbar scroll step": each arrow click moves the strip by 300 px. */
export const CATEGORY_SCROLL_STEP = 300;

interface CategoryStripProps {
  /** Shown before the categories (the feed selector). */
  leading?: ReactNode;
  /** Shown after them (geolocation and add-media buttons). */
  trailing?: ReactNode;
}

/** The row under the top bar: feed choice, scrollable categories, location and add-media (spec §2). */
export function CategoryStrip({ leading, trailing }: CategoryStripProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const { data: categories, isPending, isError } = useQuery(categoriesQueryOptions());
  const { categories: selected, subcategories: selectedSubcategories } = useFilterState();
  useWheelScrollsSideways(scroller);

  const scrollBy = (direction: -1 | 1) =>
    scroller.current?.scrollBy({ left: direction * CATEGORY_SCROLL_STEP, behavior: 'smooth' });

  return (
    <div className={classes.strip} data-testid="category-strip">
      {leading && <div className={classes.edge}>{leading}</div>}
      <ActionIcon variant="default" radius="xl" size="lg" aria-label={t('categories.scrollLeft')} onClick={() => scrollBy(-1)} className={classes.arrow}>
        <IconChevronLeft size={18} />
      </ActionIcon>
      <div ref={scroller} className={classes.scroller} role="group" aria-label={t('categories.label')}>
        {isPending && <CategorySkeletons />}
        {/* Spec §7: a failed dictionary load is ignored; the strip simply stays empty. */}
        {!isPending && !isError &&
          categories.map((category) => (
            <CategoryChip
              key={category.id}
              category={category}
              active={selected.includes(category.id)}
              onToggle={() => toggleCategory(category, selected, selectedSubcategories)}
            />
          ))}
      </div>
      <ActionIcon variant="default" radius="xl" size="lg" aria-label={t('categories.scrollRight')} onClick={() => scrollBy(1)} className={classes.arrow}>
        <IconChevronRight size={18} />
      </ActionIcon>
      {trailing && (
        <Group gap={8} wrap="nowrap" className={classes.edge}>
          {trailing}
        </Group>
      )}
    </div>
  );
}

/**
 * A click toggles a category in the filter (spec §2); several can be chosen together. Leaving a
 * category also drops its subcategories, which would otherwise narrow to nothing.
 */
function toggleCategory(category: CategoryOut, selected: readonly number[], selectedSubcategories: readonly number[]): void {
  if (!selected.includes(category.id)) {
    updateFilterState({ categories: [...selected, category.id] });
    return;
  }
  const itsSubcategories = new Set(category.subcategories.map((subcategory) => subcategory.id));
  updateFilterState({
    categories: selected.filter((id) => id !== category.id),
    subcategories: selectedSubcategories.filter((id) => !itsSubcategories.has(id)),
  });
}

function CategoryChip({ category, active, onToggle }: { category: CategoryOut; active: boolean; onToggle: () => void }) {
  return (
    <UnstyledButton className={classes.chip} data-active={active || undefined} aria-pressed={active} onClick={onToggle} data-category-id={category.id}>
      <CategoryIcon category={category} />
      <span>{category.name}</span>
    </UnstyledButton>
  );
}

function CategorySkeletons() {
  return (
    <>
      {Array.from({ length: 8 }, (_, index) => (
        <Skeleton key={index} height={34} width={96 + (index % 3) * 24} radius="xl" />
      ))}
    </>
  );
}

/** A vertical mouse wheel over the strip scrolls it sideways (spec §2 "also mouse wheel"). */
function useWheelScrollsSideways(scroller: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    const element = scroller.current;
    if (!element) return undefined;
    const onWheel = (event: WheelEvent) => {
      if (Math.abs(event.deltaY) <= Math.abs(event.deltaX)) return;
      event.preventDefault();
      element.scrollBy({ left: event.deltaY });
    };
    // Not passive: the page must not scroll vertically while the strip scrolls.
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [scroller]);
}
