import { Avatar, Group, Text } from '@mantine/core';
import { IconMapPin, IconUser } from '@tabler/icons-react';
import { type CSSProperties, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { CreatorCard as CreatorCardData } from '../../../shared/api/generated/types.gen';
import { formatCount } from '../../../shared/format/formatCount';
import { paths } from '../../../shared/routing/paths';
import { creatorRoom } from '../../../shared/socket/events';
import { useRoomWhileVisible } from '../../../shared/socket/useRoomWhileVisible';
import { useFollowToggle } from '../../../shared/engagement/useToggles';
import { FollowButton } from './CardActions';
import { rememberGridItem } from './cardLinks';
import classes from './Cards.module.css';

/** Spec §9: the logo scale is stored ×10 (10 = 100 %). */
const LOGO_SCALE_DIVISOR = 10;

/** A creator in the grid (spec §2 creator card); opens the creator page. */
export function CreatorCard({ card }: { card: CreatorCardData }) {
  const { t } = useTranslation();
  const follow = useFollowToggle(card.id, card.userid, { following: card.is_follow, followers: card.followers });
  const scale = (card.img_settings.logoScale || LOGO_SCALE_DIVISOR) / LOGO_SCALE_DIVISOR;
  const location = card.locations[0]?.location;
  const item = useRef<HTMLDivElement>(null);
  // Followers and views move live while the card is on screen (written into the grid's cache).
  useRoomWhileVisible(creatorRoom(card.id), item);
  return (
    <div className={classes.item} ref={item}>
      <Link
        to={paths.creator(card.id, card.platform_username ?? undefined)}
        className={`${classes.card} ${classes.creator}`}
        onClick={() => rememberGridItem(card.id)}
        data-testid="creator-card"
        data-grid-item={card.id}
        data-userid={card.userid}
      >
        <div className={classes.creatorBanner} style={{ backgroundColor: card.img_settings.bgColor || 'white' }}>
          <Avatar
            src={card.logo}
            size={72}
            radius={999}
            className={classes.creatorLogo}
            style={{ '--logo-scale': scale } as CSSProperties}
            alt={card.creator_name}
            // Off-screen logos wait: on a phone's link they would share it with the first previews.
            imageProps={{ loading: 'lazy' }}
          >
            {/* Unknown logos fall back to the anonymous logo (spec §2). */}
            <IconUser size={34} stroke={1.4} />
          </Avatar>
        </div>
        <div className={`${classes.body} ${classes.creatorBody}`}>
          <Text className={classes.eyebrow}>{t('cards.creator')}</Text>
          <Text className={classes.title} lineClamp={1}>
            {card.creator_name}
          </Text>
          {card.platform_username && (
            <Text size="sm" c="dimmed" truncate>
              @{card.platform_username}
            </Text>
          )}
          {location && (
            <Group gap={4} wrap="nowrap" justify="center" c="dimmed">
              <IconMapPin size={14} aria-hidden="true" />
              <Text size="xs" truncate>
                {location}
              </Text>
            </Group>
          )}
          <Group gap="lg" justify="center" className={classes.creatorStats}>
            <CreatorStat value={card.vt_count} label={t('cards.toursLabel', { count: card.vt_count })} />
            <CreatorStat value={follow.followers} label={t('cards.followersLabel', { count: follow.followers })} testId="creator-card-followers" />
            <CreatorStat value={card.views} label={t('cards.viewsLabel', { count: card.views })} />
          </Group>
        </div>
      </Link>
      {follow.visible && <FollowButton following={follow.following} busy={follow.busy} onToggle={() => void follow.toggle()} />}
    </div>
  );
}

function CreatorStat({ value, label, testId }: { value: number; label: string; testId?: string }) {
  return (
    <div className={classes.creatorStat} data-testid={testId} data-value={value}>
      <strong>{formatCount(value)}</strong>
      <span>{label}</span>
    </div>
  );
}
