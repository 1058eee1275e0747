import { lazy, Suspense } from 'react';

import { CategoryStrip } from '../../features/categories/components/CategoryStrip';
import type { CreatorMapProps, CreatorPageParts } from '../../features/creators/components/FullProfile';
import { CreatorPage } from '../../features/creators/pages/CreatorPage';
import { CreatorTours } from '../../features/feed/components/CreatorTours';
import { PartLoading } from '../../shared/ui/PartLoading';

// MapLibre (about 1 MB) is fetched only when a visitor picks the map view, or the creator's default is the map.
const CreatorToursMap = lazy(async () => ({ default: (await import('../../features/map/components/CreatorToursMap')).CreatorToursMap }));

function LazyCreatorMap(props: CreatorMapProps) {
  return (
    <Suspense fallback={<PartLoading minHeight={420} />}>
      <CreatorToursMap {...props} />
    </Suspense>
  );
}

/** The category chips of the feed, without the feed's own controls (feed choice, location, add media). */
function CreatorCategories() {
  return <CategoryStrip />;
}

/**
 * The creator page with the parts it borrows from other features (features do not import one
 * another): the feed's grid, the map and the category strip.
 */
const PARTS: CreatorPageParts = { Tours: CreatorTours, Map: LazyCreatorMap, Categories: CreatorCategories };

export function CreatorRoute() {
  return <CreatorPage parts={PARTS} />;
}
