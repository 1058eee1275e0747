import { Badge, Group, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import type { AdCard as AdCardData } from '../../../shared/api/generated/types.gen';
import { LazyImage } from '../../../shared/ui/LazyImage';
import { rememberGridItem } from './cardLinks';
import classes from './Cards.module.css';
import { PreviewFallback } from './MediaCard';

/** An ad in the grid (spec §2 ad card, labelled Sponsored); opens the advertiser's link. */
export function AdCard({ card }: { card: AdCardData }) {
  const { t } = useTranslation();
  return (
    <div className={classes.item}>
      <a
        href={card.link}
        target="_blank"
        rel="sponsored noopener noreferrer"
        className={classes.card}
        onClick={() => rememberGridItem(card.id)}
        data-testid="ad-card"
        data-grid-item={card.id}
        data-external="true"
      >
        <div className={classes.preview}>
          <LazyImage src={card.preview_picture} alt={card.title} fallback={<PreviewFallback />} />
          <Badge className={classes.sponsored} color="dark" variant="filled" radius="sm" size="sm">
            {t('cards.sponsored')}
          </Badge>
        </div>
        <div className={classes.body}>
          <Text className={classes.title} lineClamp={2}>
            {card.title}
          </Text>
          <Group gap={4} c="dimmed" wrap="nowrap">
            <IconExternalLink size={14} aria-hidden="true" />
            <Text size="xs" truncate>
              {hostOf(card.link)}
            </Text>
          </Group>
        </div>
      </a>
    </div>
  );
}

function hostOf(link: string): string {
  try {
    return new URL(link).hostname.replace(/^www\./, '');
  } catch {
    return link;
  }
}
