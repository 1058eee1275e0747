import { Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { FEED_CHOICES, type FeedChoice, updateFilterState, useFilterState } from '../../../shared/filters/filterState';
import { FeedButton } from './FeedButton';

/**
 * Which feed the grid and map show (spec §2 feed choices), fetched on first use (FeedSelector draws
 * its button until then; `defaultOpened` when it was clicked).
 */
export function FeedMenu({ defaultOpened = false }: { defaultOpened?: boolean }) {
  const { t } = useTranslation();
  const { feed } = useFilterState();
  const choose = (choice: FeedChoice | null) =>
    // A new feed brings its own default order (spec §2), so a previously picked order is dropped.
    updateFilterState({ feed: choice, sorting: null });

  return (
    <Menu position="bottom-start" radius="md" shadow="md" width={220} defaultOpened={defaultOpened}>
      <Menu.Target>
        <FeedButton />
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
