import '../../../shared/i18n/tagsTexts';

import { Button, Center, Group, Progress, SimpleGrid, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconHash } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { PopularTagsPage as PopularTagsAnswer } from '../../../shared/api/generated/types.gen';

type TagOut = PopularTagsAnswer['data'][number];
import { rememberTagLabels } from '../../../shared/filters/tagLabels';
import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';
import { popularTagsQueryOptions } from '../api/popularTags';
import classes from './PopularTagsPage.module.css';

/**
 * The Popular tags page (`/tags`, issue 18 part 6): the tags most tours carry, hashtags of their
 * descriptions included, most used first with their counts; each opens the #tag search.
 */
export function PopularTagsPage() {
  const { t, i18n } = useTranslation();
  const tags = useInfiniteQuery(popularTagsQueryOptions(i18n.language));
  const pages = tags.data?.pages ?? [];
  const list = pages.flatMap((page) => page.data);
  const total = pages[0]?.total_items ?? 0;
  const most = list[0]?.vt_count ?? 1;

  return (
    <PageShell
      title={t('popularTags.title')}
      description={t('popularTags.intro')}
      icon={<IconHash size={28} />}
      error={tags.isError && list.length === 0 ? tags.error : undefined}
      onRetry={() => void tags.refetch()}
      size="lg"
    >
      {tags.isPending ? (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" role="status" aria-busy="true" aria-label={t('popularTags.listLabel')}>
          {Array.from({ length: 9 }, (_, position) => (
            <Skeleton key={position} height={72} radius="lg" />
          ))}
        </SimpleGrid>
      ) : list.length === 0 ? (
        <Center py="xl">
          <Text c="dimmed" data-testid="popular-tags-empty">
            {t('popularTags.empty')}
          </Text>
        </Center>
      ) : (
        <Stack gap="md">
          <SimpleGrid component="ol" cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" className={classes.list} aria-label={t('popularTags.listLabel')} data-testid="popular-tags">
            {list.map((tag, position) => (
              <li key={tag.id}>
                <TagRow tag={tag} rank={position + 1} most={most} />
              </li>
            ))}
          </SimpleGrid>
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" data-testid="popular-tags-shown">
              {t('popularTags.shown', { shown: list.length.toLocaleString(i18n.language), total: total.toLocaleString(i18n.language) })}
            </Text>
            {tags.hasNextPage && (
              <Button variant="default" radius="xl" loading={tags.isFetchingNextPage} onClick={() => void tags.fetchNextPage()}>
                {t('popularTags.more')}
              </Button>
            )}
          </Group>
          {tags.isFetchNextPageError && (
            <Group gap="sm">
              <Text size="sm" c="red">
                {t('popularTags.failed')}
              </Text>
              <Button size="xs" variant="light" color="red" onClick={() => void tags.fetchNextPage()}>
                {t('popularTags.retry')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </PageShell>
  );
}

function TagRow({ tag, rank, most }: { tag: TagOut; rank: number; most: number }) {
  const { t, i18n } = useTranslation();
  const count = tag.vt_count ?? 0;
  const tours = t('popularTags.tours', { count, formatted: count.toLocaleString(i18n.language) });
  return (
    <UnstyledButton
      component={Link}
      to={paths.tagSearch(tag.id)}
      onClick={() => rememberTagLabels([tag])}
      className={classes.row}
      aria-label={`#${tag.name}, ${tours}`}
      data-testid="popular-tag"
      data-tag-id={tag.id}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap={8} wrap="nowrap" miw={0}>
          <Text size="xs" c="dimmed" className={classes.rank} aria-hidden="true">
            {t('popularTags.rank', { rank })}
          </Text>
          <Text fw={650} truncate>
            #{tag.name}
          </Text>
        </Group>
        <Text size="sm" c="dimmed" className={classes.count}>
          {tours}
        </Text>
      </Group>
      <Progress value={(100 * count) / Math.max(most, 1)} size="sm" radius="xl" mt={8} aria-hidden="true" />
    </UnstyledButton>
  );
}
