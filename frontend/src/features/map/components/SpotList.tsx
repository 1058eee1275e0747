import { CloseButton, Group, Loader, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { MapFeature } from '../../../shared/api/generated/types.gen';
import { formatCount } from '../../../shared/format/formatCount';
import { paths } from '../../../shared/routing/paths';
import classes from './SpotList.module.css';

interface SpotListProps {
  tours: readonly MapFeature[];
  loading: boolean;
  onClose: () => void;
}

/**
 * The list view (spec §2 map screen): the tours at one spot, when zooming in cannot separate them
 * (above zoom 18, or several tours at the same address).
 */
export function SpotList({ tours, loading, onClose }: SpotListProps) {
  const { t } = useTranslation();
  return (
    <section className={classes.panel} aria-label={t('map.listLabel')} data-testid="map-list">
      <Group justify="space-between" wrap="nowrap" className={classes.header}>
        <Text fw={700}>{loading ? t('map.listLoading') : t('map.listTitle', { count: tours.length })}</Text>
        <CloseButton aria-label={t('map.closeList')} onClick={onClose} />
      </Group>
      {loading ? (
        <Group justify="center" p="lg">
          <Loader size="sm" />
        </Group>
      ) : (
        <ScrollArea.Autosize mah="100%" type="auto" className={classes.scroll}>
          <ul className={classes.list}>
            {tours.map((tour) => (
              <li key={tour.properties.guid}>
                <UnstyledButton component={Link} to={paths.tour(tour.properties.guid)} className={classes.row} data-testid="map-list-item">
                  <span className={classes.thumb}>
                    {tour.properties.preview_picture ? (
                      <img src={tour.properties.preview_picture} alt="" loading="lazy" decoding="async" />
                    ) : (
                      <IconPhoto size={20} stroke={1.4} />
                    )}
                  </span>
                  <span className={classes.text}>
                    <Text size="sm" fw={600} lineClamp={2}>
                      {tour.properties.title}
                    </Text>
                    <Text size="xs" c="dimmed" truncate>
                      {[
                        tour.properties.third_party_creator || tour.properties.creator_name,
                        t('map.views', { count: tour.properties.views ?? 0, formatted: formatCount(tour.properties.views) }),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                  </span>
                </UnstyledButton>
              </li>
            ))}
          </ul>
        </ScrollArea.Autosize>
      )}
    </section>
  );
}
