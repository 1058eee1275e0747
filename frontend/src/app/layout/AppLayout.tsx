import { useEffect } from 'react';
import { Outlet, useLocation, useMatches, useParams } from 'react-router';

import { CategoryStrip } from '../../features/categories/components/CategoryStrip';
import { FeedSelector } from '../../features/filters/components/FeedSelector';
import { GettingStartedGuide } from '../../features/guide/components/GettingStartedGuide';
import { PreviewGuide } from '../../features/guide/components/PreviewGuide';
import { GeolocationButton } from '../../features/location/components/GeolocationButton';
import { AddMediaButton } from '../../features/media/components/AddMediaButton';
import {
  filterStateFromSearchParams,
  filterStateToSearchParams,
  updateFilterState,
  useFilterState,
} from '../../shared/filters/filterState';
import { useIsMobile } from '../../shared/layout/breakpoints';
import type { AppRouteHandle } from '../router';
import classes from './AppLayout.module.css';
import { TopBar } from './TopBar';

/** The main layout: top bar, the category strip on discovery pages, then the page. */
export function AppLayout({ withCategories = false }: { withCategories?: boolean }) {
  const fillViewport = useMatches().some((match) => (match.handle as AppRouteHandle | undefined)?.fillViewport);
  const mobile = useIsMobile();
  useFiltersFromLink();
  useCreatorFiltersInLink();
  return (
    <div className={classes.shell} data-fill={fillViewport || undefined}>
      <div className={classes.header}>
        <TopBar />
        {withCategories && (
          <CategoryStrip
            leading={<FeedSelector />}
            trailing={
              <>
                <GeolocationButton />
                <AddMediaButton compact={mobile} />
              </>
            }
          />
        )}
      </div>
      <Outlet />
      <GettingStartedGuide />
      {/* The guests' preview points at the category strip and the top bar of the discovery pages. */}
      {withCategories && <PreviewGuide />}
    </div>
  );
}

/** A link that names filters in its query string (`/feed?categories=3&countries=FR`) opens with them. */
function useFiltersFromLink(): void {
  const { search } = useLocation();
  useEffect(() => {
    const change = filterStateFromSearchParams(new URLSearchParams(search));
    if (Object.keys(change).length > 0) updateFilterState(change);
  }, [search]);
}

/**
 * On a creator's grid and map the filters live in the page's query string (spec §2), so the address
 * bar always holds a link to what is shown. The history entry is replaced, not added: filtering is
 * not a place to go Back to.
 */
function useCreatorFiltersInLink(): void {
  const { creatorName } = useParams();
  const { pathname } = useLocation();
  const filters = useFilterState();
  useEffect(() => {
    if (!creatorName) return;
    const search = filterStateToSearchParams(filters).toString();
    const link = search ? `${pathname}?${search}` : pathname;
    if (link !== window.location.pathname + window.location.search) window.history.replaceState(window.history.state, '', link);
  }, [creatorName, pathname, filters]);
}
