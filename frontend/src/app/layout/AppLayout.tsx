import { useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';

import { CategoryStrip } from '../../features/categories/components/CategoryStrip';
import { FeedSelector } from '../../features/filters/components/FeedSelector';
import { GettingStartedGuide } from '../../features/guide/components/GettingStartedGuide';
import { PreviewGuide } from '../../features/guide/components/PreviewGuide';
import { GeolocationButton } from '../../features/location/components/GeolocationButton';
import { AddMediaButton } from '../../features/media/components/AddMediaButton';
import {
  beginOwnFilters,
  endOwnFilters,
  FILTER_LINK_PARAMS,
  filterStateFromSearchParams,
  filterStateToSearchParams,
  getFilterState,
  INITIAL_FILTER_STATE,
  TAG_SEARCH_PARAM,
  updateFilterState,
  useFilterState,
} from '../../shared/filters/filterState';
import { useIsMobile } from '../../shared/layout/breakpoints';
import type { AppRouteHandle } from '../router';
import classes from './AppLayout.module.css';
import { TopBar } from './TopBar';

/** The main layout: top bar, the category strip on discovery pages, then the page. */
export function AppLayout({ withCategories = false }: { withCategories?: boolean }) {
  const handles = useMatches().map((match) => match.handle as AppRouteHandle | undefined);
  const fillViewport = handles.some((handle) => handle?.fillViewport);
  const filtersInLink = handles.find((handle) => handle?.filtersInLink)?.filtersInLink ?? null;
  const mobile = useIsMobile();
  // In this order: a page with its own filters takes them from its link before anything is written back.
  usePageOwnFilters(filtersInLink === 'own');
  useFiltersFromLink();
  useFiltersInLink(filtersInLink !== null);
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

/**
 * A link that names filters in its query string (`/feed?categories=3&countries=FR`) opens with them.
 * The #tag search (`/feed?tag=12`) is a one-off: once applied it leaves the address bar, so a later
 * reload shows the filters the visitor has chosen since.
 */
function useFiltersFromLink(): void {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(search);
    const change = filterStateFromSearchParams(params);
    if (Object.keys(change).length > 0) updateFilterState(change);
    if (params.has(TAG_SEARCH_PARAM)) {
      params.delete(TAG_SEARCH_PARAM);
      const rest = params.toString();
      void navigate({ pathname, search: rest ? `?${rest}` : '' }, { replace: true });
    }
  }, [search, pathname, navigate]);
}

/**
 * A page whose filters are its own (the creator page): its link is the whole truth, so a shared link
 * shows the sharer's filters, not the visitor's stored ones; the feed's filters are set aside while
 * it is open and come back when the visitor leaves it (or opens another creator).
 */
function usePageOwnFilters(own: boolean): void {
  const { pathname } = useLocation();
  const page = own ? pathname : null;
  useEffect(() => {
    if (page === null) return undefined;
    const fromLink = filterStateFromSearchParams(new URLSearchParams(window.location.search));
    beginOwnFilters({ ...INITIAL_FILTER_STATE, near: getFilterState().near, ...fromLink });
    return endOwnFilters;
  }, [page]);
}

/**
 * On the creator pages the filters live in the page's query string (spec §2), so the address bar
 * always holds a link to what is shown; the page's other parameters (the creator page's view) stay.
 * The history entry is replaced, not added: filtering is not a place to go Back to.
 */
function useFiltersInLink(enabled: boolean): void {
  const { pathname } = useLocation();
  const filters = useFilterState();
  useEffect(() => {
    if (!enabled || window.location.pathname !== pathname) return;
    const params = new URLSearchParams(window.location.search);
    FILTER_LINK_PARAMS.forEach((name) => params.delete(name));
    filterStateToSearchParams(filters).forEach((value, name) => params.set(name, value));
    const search = params.toString();
    const link = search ? `${pathname}?${search}` : pathname;
    if (link !== window.location.pathname + window.location.search) window.history.replaceState(window.history.state, '', link);
  }, [enabled, pathname, filters]);
}
