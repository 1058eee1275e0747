import { VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What the map drew when it last settled. */
export interface RenderedState {
  zoom: number;
  clusters: number;
  points: number;
  /** Where the biggest cluster on screen is, in pixels from the map's top-left corner. */
  largestCluster: { x: number; y: number } | null;
  /** Where a tour point nearest the centre is, likewise. */
  centralPoint: { x: number; y: number } | null;
}

/**
 * The map's state in the page (the canvas itself says nothing): read aloud to screen readers, and
 * read by the end-to-end tests through its data attributes, since the production build exposes no
 * map object.
 */
export function MapStatus({ rendered, loading }: { rendered: RenderedState | null; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <VisuallyHidden
      role="status"
      data-testid="map-status"
      data-ready={rendered !== null || undefined}
      data-loading={loading || undefined}
      data-zoom={rendered ? rendered.zoom.toFixed(2) : undefined}
      data-clusters={rendered?.clusters}
      data-points={rendered?.points}
      data-cluster-x={rendered?.largestCluster?.x}
      data-cluster-y={rendered?.largestCluster?.y}
      data-point-x={rendered?.centralPoint?.x}
      data-point-y={rendered?.centralPoint?.y}
    >
      {rendered ? t('map.status', { clusters: rendered.clusters, points: rendered.points }) : t('page.loading')}
    </VisuallyHidden>
  );
}
