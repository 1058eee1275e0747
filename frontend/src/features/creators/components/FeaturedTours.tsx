import { Text, Title } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import { LazyImage } from '../../../shared/ui/LazyImage';
import type { CreatorProfile } from '../model/creatorProfile';
import classes from './FeaturedTours.module.css';

/** The tours the creator chose to feature (spec §3, up to 10, in their order), as a row that scrolls sideways. */
export function FeaturedTours({ tours }: { tours: CreatorProfile['featured_tours'] }) {
  const { t } = useTranslation();
  if (tours.length === 0) return null;
  const ordered = [...tours].sort((a, b) => a.position - b.position);
  return (
    <section aria-labelledby="creator-featured-title" className={classes.featured} data-testid="creator-featured">
      <Title order={2} id="creator-featured-title" className={classes.title}>
        {t('creatorPage.featured')}
      </Title>
      <ul className={classes.row}>
        {ordered.map((tour) => (
          <li key={tour.id} className={classes.item}>
            <Link to={paths.tour(tour.id)} className={classes.card} data-testid="creator-featured-tour">
              <div className={classes.preview}>
                <LazyImage src={tour.preview_picture} alt="" fallback={<IconPhoto size={28} stroke={1.4} aria-hidden="true" />} />
              </div>
              <Text className={classes.name} lineClamp={2}>
                {tour.title}
              </Text>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
