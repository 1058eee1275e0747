import { Alert, Button, Center, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconMapSearch } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useFilterState } from '../../../shared/filters/filterState';
import { filteredGridQueryOptions } from '../api/filteredGrid';
import { CardGrid, CardSkeletons, SkeletonGrid } from '../components/CardGrid';
import classes from './FeedPage.module.css';

/** Start the next page well before the visitor reaches the end, so scrolling rarely waits. */
const PREFETCH_MARGIN = '800px';

/** The feed (spec §2 `/feed`, route gridHome): the grid of the current filters, endlessly scrolled. */
export function FeedPage() {
  const filters = useFilterState();
  const grid = useInfiniteQuery(filteredGridQueryOptions(filters));
  const cards = grid.data?.pages.flatMap((page) => page.data) ?? [];

  return <main className={classes.page}>{feedContent()}</main>;

  function feedContent() {
    // Cards already shown stay on screen even when a later page fails.
    if (cards.length > 0) {
      return (
        <>
          <CardGrid cards={cards} footer={grid.isFetchingNextPage ? <CardSkeletons count={4} /> : null} />
          {grid.hasNextPage && !grid.isFetchNextPageError && (
            <LoadMoreTrigger onVisible={() => void grid.fetchNextPage()} disabled={grid.isFetchingNextPage} />
          )}
          {grid.isFetchNextPageError && <FeedError onRetry={() => void grid.fetchNextPage()} />}
        </>
      );
    }
    if (grid.isPending) return <SkeletonGrid />;
    if (grid.isError) return <FeedError onRetry={() => void grid.refetch()} />;
    return <EmptyFeed />;
  }
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

  return <div ref={sentinel} className={classes.sentinel} aria-hidden="true" />;
}

function EmptyFeed() {
  const { t } = useTranslation();
  return (
    <Center className={classes.empty}>
      <Stack align="center" gap="sm" maw={420} ta="center">
        <div className={classes.emptyIcon}>
          <IconMapSearch size={30} stroke={1.5} />
        </div>
        <Text fw={600} size="lg" data-testid="feed-empty">
          {t('feed.empty')}
        </Text>
      </Stack>
    </Center>
  );
}

function FeedError({ onRetry }: { onRetry: () => void }) {
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
