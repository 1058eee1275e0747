import { Button, Center, Group, SegmentedControl, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconLayoutGrid, IconList, IconMap, IconMapSearch, IconPhotoOff } from '@tabler/icons-react';
import { type ComponentType, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

import {
  CLEARED_DROPDOWN_FIELDS,
  countActiveFilters,
  type FilterState,
  updateFilterState,
  useFilterState,
} from '../../../shared/filters/filterState';
import { chosenView, type CreatorProfile, type CreatorView, VIEW_PARAM } from '../model/creatorProfile';
import { FeaturedTours } from './FeaturedTours';
import classes from './FullProfile.module.css';

/** The creator's tours as cards or as a list (the feed's grid, scoped to the creator). */
export interface CreatorToursProps {
  userId: number;
  layout: 'grid' | 'list';
  /** Shown when the filters leave nothing. */
  empty: ReactNode;
}

/** The creator's tours on a map. */
export interface CreatorMapProps {
  userId: number;
}

/**
 * What the Full Profile borrows from other features: the grid, the map and the category filter. The
 * app wires them in (src/app/routes/CreatorRoute.tsx); features do not import one another.
 */
export interface CreatorPageParts {
  Tours: ComponentType<CreatorToursProps>;
  Map: ComponentType<CreatorMapProps>;
  Categories?: ComponentType;
}

const VIEW_ICONS: Record<CreatorView, ReactNode> = {
  grid: <IconLayoutGrid size={16} aria-hidden="true" />,
  list: <IconList size={16} aria-hidden="true" />,
  map: <IconMap size={16} aria-hidden="true" />,
};

/**
 * The Full Profile (spec §2): the creator's tours in grid, list or map. The view is in the page's
 * query string (`view`), else the creator's default view; the filters are there too (the app layout
 * keeps them in step), so a reload or a shared link shows the same.
 */
export function FullProfile({ profile, parts }: { profile: CreatorProfile; parts: CreatorPageParts }) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const [view, setView] = useState<CreatorView>(() => chosenView(search, profile.default_view));
  const filters = useFilterState();
  const active = activeFilterCount(filters);

  const choose = (next: CreatorView) => {
    setView(next);
    writeViewToLink(next);
  };

  const { Tours, Map: ToursMap, Categories } = parts;
  let content: ReactNode;
  if (profile.vt_count === 0 && active === 0) content = <NoToursYet name={profile.creator_name} />;
  else if (view === 'map') content = <ToursMap userId={profile.userid} />;
  else content = <Tours userId={profile.userid} layout={view} empty={<NoMatch onClear={clearFilters} />} />;

  return (
    <div className={classes.fullProfile}>
      {active === 0 && <FeaturedTours tours={profile.featured_tours} />}
      <section aria-labelledby="creator-tours-title" data-testid="creator-full-profile" data-view={view}>
        <Group justify="space-between" gap="sm" className={classes.toolbar}>
          <Group gap="xs" wrap="nowrap">
            <Title order={2} id="creator-tours-title" className={classes.title}>
              {t('creatorPage.tours')}
            </Title>
            {active > 0 && (
              <Button variant="subtle" size="compact-sm" radius="xl" onClick={clearFilters} data-testid="creator-clear-filters">
                {t('creatorPage.clearFilters', { count: active })}
              </Button>
            )}
          </Group>
          <SegmentedControl
            radius="xl"
            size="sm"
            value={view}
            onChange={(value) => choose(value as CreatorView)}
            aria-label={t('creatorPage.viewLabel')}
            data={(['grid', 'list', 'map'] as const).map((value) => ({
              value,
              label: (
                <Group gap={6} wrap="nowrap" justify="center">
                  {VIEW_ICONS[value]}
                  <span>{t(`creatorPage.views.${value}`)}</span>
                </Group>
              ),
            }))}
            data-testid="creator-view-switch"
          />
        </Group>
        {Categories && (
          <div className={classes.categories}>
            <VisuallyHidden>{t('creatorPage.categoriesHint')}</VisuallyHidden>
            <Categories />
          </div>
        )}
        <div className={classes.content}>{content}</div>
      </section>
    </div>
  );
}

/** The filters the creator page keeps in its link and that narrow its tours. */
export function activeFilterCount(filters: FilterState): number {
  return countActiveFilters(filters) + (filters.categories.length > 0 ? 1 : 0) + (filters.subcategories.length > 0 ? 1 : 0);
}

function clearFilters(): void {
  updateFilterState({ ...CLEARED_DROPDOWN_FIELDS, categories: [], subcategories: [] });
}

/** The view into the address bar, the rest of its query string kept (history replaced: not a place to go Back to). */
function writeViewToLink(view: CreatorView): void {
  const params = new URLSearchParams(window.location.search);
  params.set(VIEW_PARAM, view);
  window.history.replaceState(window.history.state, '', `${window.location.pathname}?${params.toString()}`);
}

function NoToursYet({ name }: { name: string }) {
  const { t } = useTranslation();
  return (
    <EmptyState icon={<IconPhotoOff size={30} stroke={1.5} />} title={t('creatorPage.noToursTitle')} text={t('creatorPage.noTours', { name })} testId="creator-no-tours" />
  );
}

function NoMatch({ onClear }: { onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState icon={<IconMapSearch size={30} stroke={1.5} />} title={t('creatorPage.noMatchTitle')} text={t('creatorPage.noMatch')} testId="creator-no-match">
      <Button radius="xl" variant="light" onClick={onClear}>
        {t('creatorPage.clearAll')}
      </Button>
    </EmptyState>
  );
}

function EmptyState({ icon, title, text, testId, children }: { icon: ReactNode; title: string; text: string; testId: string; children?: ReactNode }) {
  return (
    <Center className={classes.empty} data-testid={testId}>
      <Stack align="center" gap="sm" maw={420} ta="center">
        <div className={classes.emptyIcon} aria-hidden="true">
          {icon}
        </div>
        <Text fw={700} size="lg">
          {title}
        </Text>
        <Text c="dimmed" size="sm">
          {text}
        </Text>
        {children}
      </Stack>
    </Center>
  );
}
