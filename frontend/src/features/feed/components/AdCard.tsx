import { Badge, Group, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { type RefObject, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

import type { AdCard as AdCardData } from '../../../shared/api/generated/types.gen';
import { LazyImage } from '../../../shared/ui/LazyImage';
import { pageViewOf, trackAdClick, trackAdShown } from './AdCardTracking';
import { rememberGridItem } from './cardLinks';
import classes from './Cards.module.css';
import { PreviewFallback } from './MediaCard';

/** Half of the card on screen counts as shown (the usual measure of an ad impression). */
const SHOWN_RATIO = 0.5;

/**
 * Counts the ad as shown (GET show) once it first comes on screen; at once where nothing can tell.
 * trackAdShown asks once per ad and page view, so a card mounted again asks nothing more.
 */
function useCountShown(element: RefObject<Element | null>, adId: number, pageView: string): void {
  useEffect(() => {
    const target = element.current;
    if (!target) return undefined;
    if (typeof IntersectionObserver === 'undefined') {
      trackAdShown(adId, pageView);
      return undefined;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        trackAdShown(adId, pageView);
      },
      { threshold: SHOWN_RATIO },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [element, adId, pageView]);
}

/** An ad in the grid (spec §2 ad card, labelled Sponsored); opens the advertiser's link. */
export function AdCard({ card }: { card: AdCardData }) {
  const { t } = useTranslation();
  const pageView = pageViewOf(useLocation().key);
  const ref = useRef<HTMLAnchorElement>(null);
  useCountShown(ref, card.id, pageView);
  const opened = () => {
    rememberGridItem(card.id);
    trackAdClick(card.id, pageView);
  };
  return (
    <div className={classes.item}>
      <a
        ref={ref}
        href={card.link}
        target="_blank"
        rel="sponsored noopener noreferrer"
        className={classes.card}
        onClick={opened}
        // A middle click opens the link too, without a click event.
        onAuxClick={(event) => event.button === 1 && opened()}
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
