import { Alert, Button, Center, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconMapSearch } from '@tabler/icons-react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigationType } from 'react-router';

import type { GridPage } from '../../../shared/api/generated/types.gen';
import { readGridPages, storeGridPages } from '../../../shared/filters/filterState';
import { readItem, removeItem, STORAGE_KEYS } from '../../../shared/storage/localStore';
import { GRID_PAGE_SIZE, type GridCard, uniqueCards } from '../api/filteredGrid';
import { CardGrid, type CardLayout, CardSkeletons, SkeletonGrid } from './CardGrid';
import classes from './InfiniteCardGrid.module.css';

/** Start the next page well before the visitor reaches the end, so scrolling rarely waits. */
const PREFETCH_MARGIN = '800px';
/** How long the card the visitor came back to stays outlined. */
const HIGHLIGHT_MS = 1600;

type GridQuery = UseInfiniteQueryResult<InfiniteData<GridPage, unknown>>;

/**
 * A grid that loads its next page as the visitor scrolls (spec §2 endless scroll), and brings the
 * visitor back to the card they opened when they come back (spec §2 gridItemId).
 */
export function InfiniteCardGrid({ grid, empty, layout = 'grid' }: { grid: GridQuery; empty?: ReactNode; layout?: CardLayout }) {
  const cards = uniqueCards(grid.data?.pages ?? []);
  useRememberedPages(grid);
  useReturnToCard(cards, grid);

  // Cards already shown stay on screen even when a later page fails.
  if (cards.length > 0) {
    return (
      <>
        <CardGrid cards={cards} layout={layout} footer={grid.isFetchingNextPage ? <CardSkeletons count={4} /> : null} />
        {grid.hasNextPage && !grid.isFetchNextPageError && (
          <LoadMoreTrigger onVisible={() => void grid.fetchNextPage()} disabled={grid.isFetchingNextPage} />
        )}
        {grid.isFetchNextPageError && <GridError onRetry={() => void grid.fetchNextPage()} />}
      </>
    );
  }
  if (grid.isPending) return <SkeletonGrid layout={layout} count={layout === 'list' ? 6 : 12} />;
  if (grid.isError) return <GridError onRetry={() => void grid.refetch()} />;
  return empty ?? <EmptyGrid />;
}

/** Spec §3 userState "current page, last page": how far the visitor scrolled, to come back to it. */
function useRememberedPages(grid: GridQuery): void {
  const pages = grid.data?.pages ?? [];
  const loaded = pages.length;
  const total = pages[0]?.total_items ?? 0;
  useEffect(() => {
    if (loaded === 0) return;
    storeGridPages({ currentPage: loaded, lastPage: Math.max(0, Math.ceil(total / GRID_PAGE_SIZE) - 1) });
  }, [loaded, total]);
}

/**
 * Back from a tour (a POP navigation, even after a full reload) scrolls to the card that was opened,
 * loading as many pages as the visitor had loaded; any other arrival starts at the top.
 */
function useReturnToCard(cards: readonly GridCard[], grid: GridQuery): void {
  const navigationType = useNavigationType();
  const wanted = useRef<string | null>(navigationType === 'POP' ? readItem(STORAGE_KEYS.gridItemId) : null);
  const pagesToSearch = useRef(Math.max(1, readGridPages().currentPage));
  const loadedPages = grid.data?.pages.length ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = grid;

  useEffect(() => {
    if (navigationType !== 'POP') removeItem(STORAGE_KEYS.gridItemId);
  }, [navigationType]);

  useEffect(() => {
    const itemId = wanted.current;
    if (itemId === null || cards.length === 0 || isFetchingNextPage) return;
    const card = document.querySelector<HTMLElement>(`[data-grid-item="${CSS.escape(itemId)}"]`);
    if (card) {
      wanted.current = null;
      removeItem(STORAGE_KEYS.gridItemId);
      showCard(card);
    } else if (hasNextPage && loadedPages < pagesToSearch.current) {
      void fetchNextPage();
    } else {
      wanted.current = null; // not among the pages the visitor had seen: the grid changed meanwhile
    }
  }, [cards.length, loadedPages, hasNextPage, isFetchingNextPage, fetchNextPage]);
}

function showCard(card: HTMLElement): void {
  card.scrollIntoView({ block: 'center' });
  card.focus({ preventScroll: true });
  const item = card.parentElement;
  if (!item) return;
  item.dataset.highlight = 'true';
  window.setTimeout(() => delete item.dataset.highlight, HIGHLIGHT_MS);
}

function LoadMoreTrigger({ onVisible, disabled }: { onVisible: () => void; disabled: boolean }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const latest = useRef(onVisible);
  latest.current = onVisible;

  useEffect(() => {
    const element = sentinel.current;
    if (!element || disabled || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && latest.current(), {
      rootMargin: PREFETCH_MARGIN,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [disabled]);

  return <div ref={sentinel} className={classes.sentinel} aria-hidden="true" data-testid="grid-load-more" />;
}

/** Spec §8: the empty grid's text. */
export function EmptyGrid({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <Center className={classes.empty}>
      <Stack align="center" gap="sm" maw={420} ta="center">
        <div className={classes.emptyIcon}>
          <IconMapSearch size={30} stroke={1.5} />
        </div>
        <Text fw={600} size="lg" data-testid="feed-empty">
          {text ?? t('feed.empty')}
        </Text>
      </Stack>
    </Center>
  );
}

function GridError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('feed.errorTitle')} className={classes.error}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('feed.errorText')}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
