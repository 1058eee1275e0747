import { Skeleton } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';

import { isFirstScreenDrawn } from '../../../shared/timing/afterFirstScreen';

import { type GridCard, gridCardKey } from '../api/filteredGrid';
import { AdCard } from './AdCard';
import { useCardContextMenu } from './CardContextMenu';
import classes from './CardGrid.module.css';
import { CreatorCard } from './CreatorCard';
import { MediaCard } from './MediaCard';

/** Cards side by side, or one under another with the preview beside the text (the creator page's list view). */
export type CardLayout = 'grid' | 'list';

/** The grid frame: a responsive grid of media, creator and ad cards (spec §2), with their context menu. */
export function CardGrid({ cards, footer, layout = 'grid' }: { cards: readonly GridCard[]; footer?: ReactNode; layout?: CardLayout }) {
  const contextMenu = useCardContextMenu();
  const shown = useShownCount(cards.length);
  return (
    <>
      <div className={classes.grid} data-layout={layout} data-testid="card-grid" onContextMenu={contextMenu.onContextMenu}>
        {cards.slice(0, shown).map((card, index) => (
          <GridCardView key={gridCardKey(card)} card={card} imagePriority={firstScreenPriority(index)} />
        ))}
        {/* The footer asks for the next page when it comes near the screen: not before the cards are all drawn. */}
        {shown >= cards.length && footer}
      </div>
      {contextMenu.menu}
    </>
  );
}

/** Cards drawn per task while the first screen is drawn. */
const FIRST_SCREEN_BATCH = 12;

/**
 * How many cards to draw. The first screen's grid is drawn FIRST_SCREEN_BATCH cards per task, so the
 * phone's main thread is not blocked for the whole page of 48 (their previews are asked for from the
 * first batch); any later grid (a new filter, the way back to the feed) at once, so the scroll
 * position can be restored.
 */
function useShownCount(total: number): number {
  const [limit, setLimit] = useState(() => (isFirstScreenDrawn() ? Number.POSITIVE_INFINITY : FIRST_SCREEN_BATCH));
  useEffect(() => {
    if (limit >= total) return undefined;
    const timer = setTimeout(() => setLimit((current) => current + FIRST_SCREEN_BATCH), 0);
    return () => clearTimeout(timer);
  }, [limit, total]);
  return limit;
}

/**
 * The first row (one card on a phone, up to four on a wide screen) is on screen at once: its previews
 * load without waiting, the first one (the largest paint on a phone) with high priority.
 */
const FIRST_SCREEN_CARDS = 4;

function firstScreenPriority(index: number): 'high' | 'eager' | undefined {
  if (index === 0) return 'high';
  return index < FIRST_SCREEN_CARDS ? 'eager' : undefined;
}

function GridCardView({ card, imagePriority }: { card: GridCard; imagePriority: 'high' | 'eager' | undefined }) {
  switch (card.type) {
    case 'vt':
      return <MediaCard card={card} imagePriority={imagePriority} />;
    case 'creator':
      return <CreatorCard card={card} />;
    case 'ad':
      return <AdCard card={card} />;
  }
}

/** Placeholders shaped like cards while a page of the grid loads. */
export function CardSkeletons({ count }: { count: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className={classes.skeleton} aria-hidden="true">
          <Skeleton className={classes.skeletonImage} radius={0} />
          <div className={classes.skeletonBody}>
            <Skeleton height={14} width="85%" radius="sm" />
            <Skeleton height={12} width="50%" radius="sm" />
          </div>
        </div>
      ))}
    </>
  );
}

export function SkeletonGrid({ count = 12, layout = 'grid' }: { count?: number; layout?: CardLayout }) {
  return (
    <div className={classes.grid} data-layout={layout} aria-busy="true" data-testid="card-grid-loading">
      <CardSkeletons count={count} />
    </div>
  );
}
