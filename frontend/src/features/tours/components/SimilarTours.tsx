import { SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../../../shared/layout/breakpoints';

import { similarToursQueryOptions } from '../api/tourApi';
import classes from './TourPage.module.css';
import { TourCard } from './TourCard';

/** Similar tours under the tour (GET similar-media/{guid}); hidden when there are none. */
export function SimilarTours({ guid, language }: { guid: string; language: string }) {
  const { t } = useTranslation();
  const similar = useQuery(similarToursQueryOptions(guid, language));
  // A phone shows a shorter list: the page is long enough already.
  const shown = useIsMobile() ? 6 : 12;
  if (similar.isError || (similar.isSuccess && similar.data.length === 0)) return null;
  return (
    <section className={classes.section} aria-labelledby="similar-tours" data-testid="similar-tours">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="similar-tours">
            {t('tourPage.similar')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('tourPage.similarHint')}
          </Text>
        </div>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
          {similar.isPending
            ? Array.from({ length: 4 }, (_, index) => <Skeleton key={index} radius="lg" className={classes.cardSkeleton} />)
            : similar.data.slice(0, shown).map((card) => <TourCard key={card.guid} card={card} />)}
        </SimpleGrid>
      </Stack>
    </section>
  );
}
