import { Badge, CloseButton, Group, Text } from '@mantine/core';
import { IconHash, IconMapPin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import type { RankedBy } from '../../../shared/api/generated/types.gen';
import { getFilterState, updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import { useTagLabels } from '../../../shared/filters/tagLabels';
import { feedRuleText } from './FeedRule';
import classes from './GridSummary.module.css';

/**
 * Above the grid: how many results the filters give, what they are ordered by (the feed's rule, from
 * the answer), and the place they are narrowed to, removable.
 */
export function GridSummary({ total, rankedBy = null }: { total: number | null; rankedBy?: RankedBy | null }) {
  const { t, i18n } = useTranslation();
  const { address, bounds, feed, tags } = useFilterState();
  const labels = useTagLabels();
  const removeTag = (id: number) => updateFilterState({ tags: getFilterState().tags.filter((tag) => tag !== id) });
  const rule = feedRuleText(t, feed, rankedBy);
  return (
    <Group className={classes.summary} gap="xs" wrap="wrap">
      <Text size="sm" c="dimmed" data-testid="grid-total" style={{ whiteSpace: 'nowrap' }}>
        {total === null ? '\u00a0' : t('feed.results', { count: total, formatted: total.toLocaleString(i18n.language) })}
      </Text>
      {rule && (
        <Text size="sm" className={classes.rule} data-testid="feed-rule">
          {rule}
        </Text>
      )}
      {/* The #tag search (a hashtag, the Popular tags page): the tags it narrows to, removable. */}
      {tags.map((id) => {
        const name = labels.get(id) ?? String(id);
        return (
          <Badge
            key={id}
            variant="light"
            size="lg"
            radius="xl"
            leftSection={<IconHash size={14} />}
            rightSection={<CloseButton size="xs" aria-label={t('filters.removeTag', { tag: name })} onClick={() => removeTag(id)} />}
            className={classes.location}
            data-testid="tag-filter"
          >
            {name}
          </Badge>
        );
      })}
      {bounds && (
        <Badge
          variant="light"
          size="lg"
          radius="xl"
          leftSection={<IconMapPin size={14} />}
          rightSection={<CloseButton size="xs" aria-label={t('filters.removeLocation')} onClick={() => updateFilterState({ bounds: null, address: '' })} />}
          className={classes.location}
          data-testid="location-filter"
        >
          {address || t('filters.mapArea')}
        </Badge>
      )}
    </Group>
  );
}
