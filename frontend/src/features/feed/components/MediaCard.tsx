import { Group, Text } from '@mantine/core';
import { IconBookmark, IconEye, IconPhoto } from '@tabler/icons-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { MediaCard as MediaCardData } from '../../../shared/api/generated/types.gen';
import { formatCount } from '../../../shared/format/formatCount';
import { paths } from '../../../shared/routing/paths';
import { tourRoom } from '../../../shared/socket/events';
import { useRoomWhileVisible } from '../../../shared/socket/useRoomWhileVisible';
import { LazyImage } from '../../../shared/ui/LazyImage';
import { useSaveToggle } from '../../../shared/engagement/useToggles';
import { SaveButton } from './CardActions';
import { rememberGridItem } from './cardLinks';
import classes from './Cards.module.css';

/** A tour in the grid (spec §2 media card); opens the tour page. The save button sits beside the link. */
export function MediaCard({ card, imagePriority }: { card: MediaCardData; imagePriority?: 'high' | 'eager' }) {
  const { t } = useTranslation();
  const save = useSaveToggle(card.guid, { saved: card.is_save, saves: card.saves });
  const item = useRef<HTMLDivElement>(null);
  // Views and saves of other visitors arrive while the card is on screen (written into the grid's cache).
  useRoomWhileVisible(tourRoom(card.guid), item);
  return (
    <div className={classes.item} ref={item}>
      <Link
        to={paths.tour(card.guid)}
        className={classes.card}
        onClick={() => rememberGridItem(card.guid)}
        data-testid="media-card"
        data-grid-item={card.guid}
        data-guid={card.guid}
        data-userid={card.userid}
        data-media-type={card.media_type_id}
      >
        <div className={classes.preview}>
          <LazyImage src={card.preview_picture} alt={card.title} fallback={<PreviewFallback />} priority={imagePriority} />
        </div>
        <div className={classes.body}>
          <Text className={classes.title} lineClamp={2}>
            {card.title}
          </Text>
          <Group justify="space-between" wrap="nowrap" gap="xs" className={classes.meta}>
            <Group gap={12} wrap="nowrap">
              <span className={classes.stat} title={t('cards.views', { count: card.views })} data-testid="card-views" data-value={card.views}>
                <IconEye size={15} aria-hidden="true" />
                {formatCount(card.views)}
              </span>
              <span className={classes.stat} title={t('cards.saves', { count: save.saves })} data-testid="card-saves" data-value={save.saves}>
                <IconBookmark size={15} aria-hidden="true" />
                {formatCount(save.saves)}
              </span>
            </Group>
            <Text size="xs" c="dimmed" truncate>
              {card.created_ago}
            </Text>
          </Group>
        </div>
      </Link>
      {!card.is_owned && <SaveButton saved={save.saved} busy={save.busy} onToggle={() => void save.toggle()} />}
    </div>
  );
}

export function PreviewFallback() {
  return (
    <div className={classes.fallback}>
      <IconPhoto size={32} stroke={1.4} aria-hidden="true" />
    </div>
  );
}
