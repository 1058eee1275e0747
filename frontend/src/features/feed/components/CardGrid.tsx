import { Skeleton } from '@mantine/core';
import type { ReactNode } from 'react';

import { type GridCard, gridCardKey } from '../api/filteredGrid';
import { AdCard } from './AdCard';
import { useCardContextMenu } from './CardContextMenu';
import classes from './CardGrid.module.css';
import { CreatorCard } from './CreatorCard';
import { MediaCard } from './MediaCard';

/** The grid frame: a responsive grid of media, creator and ad cards (spec §2), with their context menu. */
export function CardGrid({ cards, footer }: { cards: readonly GridCard[]; footer?: ReactNode }) {
  const contextMenu = useCardContextMenu();
  return (
    <>
      <div className={classes.grid} data-testid="card-grid" onContextMenu={contextMenu.onContextMenu}>
        {cards.map((card) => (
          <GridCardView key={gridCardKey(card)} card={card} />
        ))}
        {footer}
      </div>
      {contextMenu.menu}
    </>
  );
}

function GridCardView({ card }: { card: GridCard }) {
  switch (card.type) {
    case 'vt':
      return <MediaCard card={card} />;
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

export function SkeletonGrid({ count = 12 }: { count?: number }) {
  return (
    <div className={classes.grid} aria-busy="true" data-testid="card-grid-loading">
      <CardSkeletons count={count} />
    </div>
  );
}
