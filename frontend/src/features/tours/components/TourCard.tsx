import { Group, Text } from '@mantine/core';
import { IconBookmark, IconEye, IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { MediaCard } from '../../../shared/api/generated/types.gen';
import { formatCount } from '../../../shared/format/formatCount';
import { paths } from '../../../shared/routing/paths';
import { LazyImage } from '../../../shared/ui/LazyImage';
import classes from './TourCard.module.css';

/** A tour in the similar-tours and saved-tours grids; opens the tour page. */
export function TourCard({ card, onOpen }: { card: MediaCard; onOpen?: () => void }) {
  const { t } = useTranslation();
  return (
    <Link to={paths.tour(card.guid)} className={classes.card} onClick={onOpen} data-testid="tour-card" data-guid={card.guid}>
      <div className={classes.preview}>
        <LazyImage
          src={card.preview_picture}
          alt={card.title}
          fallback={
            <div className={classes.fallback}>
              <IconPhoto size={28} stroke={1.4} aria-hidden="true" />
            </div>
          }
        />
      </div>
      <div className={classes.body}>
        <Text className={classes.title} lineClamp={2}>
          {card.title}
        </Text>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={10} wrap="nowrap">
            <span className={classes.stat} title={t('cards.views', { count: card.views })}>
              <IconEye size={14} aria-hidden="true" />
              {formatCount(card.views)}
            </span>
            <span className={classes.stat} title={t('cards.saves', { count: card.saves })}>
              <IconBookmark size={14} aria-hidden="true" />
              {formatCount(card.saves)}
            </span>
          </Group>
          <Text size="xs" c="dimmed" truncate className={classes.age}>
            {card.created_ago}
          </Text>
        </Group>
      </div>
    </Link>
  );
}
