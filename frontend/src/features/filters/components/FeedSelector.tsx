import { Button, Menu } from '@mantine/core';
import { IconCheck, IconChevronDown, IconSparkles } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { FEED_CHOICES, type FeedChoice, updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import { useIsMobile } from '../../../shared/layout/breakpoints';

/** Which feed the grid and map show (spec §2 feed choices); "All tours" is no particular feed. */
export function FeedSelector() {
  const { t } = useTranslation();
  const { feed } = useFilterState();
  // On phones the strip is narrow: the label alone says enough.
  const compact = useIsMobile();
  const choose = (choice: FeedChoice | null) =>
    // A new feed brings its own default order (spec §2), so a previously picked order is dropped.
    updateFilterState({ feed: choice, sorting: null });

  return (
    <Menu position="bottom-start" radius="md" shadow="md" width={220}>
      <Menu.Target>
        <Button
          variant="light"
          radius="xl"
          size="sm"
          leftSection={compact ? undefined : <IconSparkles size={16} />}
          rightSection={<IconChevronDown size={14} />}
          data-testid="feed-selector"
        >
          {feed ? t(`feeds.${feed}`) : t('feeds.all')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('feeds.label')}</Menu.Label>
        <Menu.Item onClick={() => choose(null)} rightSection={feed === null ? <IconCheck size={14} /> : null}>
          {t('feeds.all')}
        </Menu.Item>
        {FEED_CHOICES.map((choice) => (
          <Menu.Item key={choice} onClick={() => choose(choice)} rightSection={feed === choice ? <IconCheck size={14} /> : null}>
            {t(`feeds.${choice}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
