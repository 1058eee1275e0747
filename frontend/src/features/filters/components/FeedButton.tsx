import { Button } from '@mantine/core';
import { IconChevronDown, IconSparkles } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useFilterState } from '../../../shared/filters/filterState';
import { useIsMobile } from '../../../shared/layout/breakpoints';

/** The feed menu's button: the feed shown ("All tours" when none in particular). */
export function FeedButton(props: ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  const { feed } = useFilterState();
  // On phones the strip is narrow: the label alone says enough.
  const compact = useIsMobile();
  return (
    <Button
      variant="light"
      radius="xl"
      size="sm"
      leftSection={compact ? undefined : <IconSparkles size={16} />}
      rightSection={<IconChevronDown size={14} />}
      data-testid="feed-selector"
      {...props}
    >
      {feed ? t(`feeds.${feed}`) : t('feeds.all')}
    </Button>
  );
}
