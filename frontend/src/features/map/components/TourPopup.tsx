import { Avatar, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowRight, IconEye, IconHeart, IconPhoto, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { MapFeatureProperties } from '../../../shared/api/generated/types.gen';
import { formatCount } from '../../../shared/format/formatCount';
import { paths } from '../../../shared/routing/paths';
import classes from './TourPopup.module.css';

/** A point's popup card (spec §2 map "popups"): picture, title, creator and the way to the tour. */
export function TourPopup({ tour }: { tour: MapFeatureProperties }) {
  const { t } = useTranslation();
  const creatorName = tour.third_party_creator || tour.creator_name;
  return (
    <div className={classes.card} data-testid="map-popup">
      <Link to={paths.tour(tour.guid)} className={classes.picture} tabIndex={-1} aria-hidden="true">
        {tour.preview_picture ? (
          <img src={tour.preview_picture} alt="" loading="lazy" decoding="async" />
        ) : (
          <span className={classes.fallback}>
            <IconPhoto size={28} stroke={1.4} />
          </span>
        )}
      </Link>
      <Stack gap={8} className={classes.body}>
        <Text component={Link} to={paths.tour(tour.guid)} className={classes.title} lineClamp={2}>
          {tour.title}
        </Text>
        {creatorName && (
          <Group gap={6} wrap="nowrap">
            <Avatar src={tour.logo} size={22} radius={999} className={classes.logo}>
              <IconUser size={12} />
            </Avatar>
            {tour.platform_username ? (
              <Text component={Link} to={paths.creatorGrid(tour.platform_username)} size="xs" c="dimmed" truncate className={classes.creator}>
                {creatorName}
              </Text>
            ) : (
              <Text size="xs" c="dimmed" truncate>
                {creatorName}
              </Text>
            )}
          </Group>
        )}
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={10} wrap="nowrap" className={classes.stats}>
            <span title={t('cards.views', { count: tour.views ?? 0 })}>
              <IconEye size={14} aria-hidden="true" /> {formatCount(tour.views)}
            </span>
            <span title={t('map.likes', { count: tour.likes ?? 0 })}>
              <IconHeart size={14} aria-hidden="true" /> {formatCount(tour.likes)}
            </span>
          </Group>
          {tour.created_ago && (
            <Text size="xs" c="dimmed" truncate>
              {tour.created_ago}
            </Text>
          )}
        </Group>
        <Button component={Link} to={paths.tour(tour.guid)} size="xs" radius="xl" rightSection={<IconArrowRight size={14} />} fullWidth>
          {t('map.openTour')}
        </Button>
      </Stack>
    </div>
  );
}
