import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, redirect, type RouteObject } from 'react-router';

import { prefetchFeed } from '../features/feed/api/filteredGrid';
import { FeedPage } from '../features/feed/pages/FeedPage';
import { i18n } from '../shared/i18n/i18n';
import { paths } from '../shared/routing/paths';
import { createGuardLoader } from './guard/guardLoader';
import type { RouteName } from './guard/routeGuard';
import { AppLayout } from './layout/AppLayout';
import { PlainLayout } from './layout/PlainLayout';
import { RootLayout, RootLoading, RouteError } from './layout/RootLayout';

export interface AppRouteHandle {
  name: RouteName;
  /** The page fills the viewport under the top bar instead of scrolling (the map). */
  fillViewport?: boolean;
  /**
   * The page keeps its filters in its query string (spec §2 creator pages). 'own': the link is the
   * whole truth and the page's filters are its own (the feed's come back when the visitor leaves);
   * 'shared': the page shows the feed's filters and writes them into its link.
   */
  filtersInLink?: 'own' | 'shared';
}

const named = (name: RouteName, extra: Omit<AppRouteHandle, 'name'> = {}): AppRouteHandle => ({ name, ...extra });

// Only the feed is in the first download (its budget: scripts/check-bundle-budget.mjs). Every other
// page is fetched when its route opens; meanwhile the router keeps the current page (or, on a first
// load, the root's loading screen) on screen. The map bundles MapLibre (about 1 MB).
const lazyMapPage = async () => ({ Component: (await import('../features/map/pages/MapPage')).MapPage });
const lazyTourPage = async () => ({ Component: (await import('../features/tours/pages/TourPage')).TourPage });
const lazyCreatorPage = async () => ({ Component: (await import('./routes/CreatorRoute')).CreatorRoute });
const lazyCreatorGridPage = async () => ({ Component: (await import('../features/feed/pages/CreatorGridPage')).CreatorGridPage });
const lazyModerationPage = async () => ({ Component: (await import('../features/moderation/pages/ModerationPage')).ModerationPage });
const lazyClassificationsPage = async () => ({ Component: (await import('../features/classifications/pages/ClassificationsPage')).ClassificationsPage });
const lazyStatisticsPage = async () => ({ Component: (await import('../features/statistics/pages/StatisticsPage')).StatisticsPage });
const lazyUsersAdminPage = async () => ({ Component: (await import('../features/users-admin/pages/UsersAdminPage')).UsersAdminPage });
const lazyMailingListPage = async () => ({ Component: (await import('../features/mailing/pages/MailingListPage')).MailingListPage });
const lazyResetPasswordPage = async () => ({ Component: (await import('../features/auth/pages/ResetPasswordPage')).ResetPasswordPage });
const lazyRegistrationPage = async () => ({ Component: (await import('../features/auth/pages/RegistrationPage')).RegistrationPage });
const lazyCreateAccountPage = async () => ({ Component: (await import('../features/auth/pages/CreateAccountPage')).CreateAccountPage });
const lazyPlansPage = async () => ({ Component: (await import('../features/billing/pages/PlansPage')).PlansPage });
const lazyBillingSuccessPage = async () => ({ Component: (await import('../features/billing/pages/BillingSuccessPage')).BillingSuccessPage });
const lazyPopularTagsPage = async () => ({ Component: (await import('../features/tags/pages/PopularTagsPage')).PopularTagsPage });
const lazyCrashPage = async () => ({ Component: (await import('../features/platform/pages/CrashPage')).CrashPage });
const lazyNotFoundPage = async () => ({ Component: (await import('../features/platform/pages/NotFoundPage')).NotFoundPage });

/** Spec §2 routes. Every child of the root passes the route guard (the root loader). */
export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
  // The feed's first page is asked for as its route opens, beside the guard's check (prefetchFeed).
  const startFeed = () => prefetchFeed(queryClient, i18n.language);
  const routes: RouteObject[] = [
    {
      id: 'root',
      element: <RootLayout />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <RootLoading />,
      loader: createGuardLoader(queryClient, () => routes),
      // Spec §2: the guard runs on every navigation, not only when the root's own URL changes.
      shouldRevalidate: () => true,
      children: [
        // The loaders redirect before anything renders; the elements cover a render without them.
        {
          index: true,
          handle: named('root'),
          loader: () => {
            startFeed(); // where the redirect leads
            return redirect(paths.feed);
          },
          element: <Navigate replace to={paths.feed} />,
        },
        { path: 'home', handle: named('home'), loader: () => redirect(paths.root), element: <Navigate replace to={paths.root} /> },
        {
          element: <AppLayout withCategories />,
          children: [
            {
              path: 'feed',
              handle: named('gridHome'),
              loader: () => {
                startFeed();
                return null;
              },
              element: <FeedPage />,
            },
            { path: 'map', handle: named('mapHome', { fillViewport: true }), lazy: lazyMapPage },
            { path: ':creatorName/map', handle: named('mapCreatorLink', { fillViewport: true, filtersInLink: 'shared' }), lazy: lazyMapPage },
            { path: ':creatorName/grid', handle: named('gridCreatorLink', { filtersInLink: 'shared' }), lazy: lazyCreatorGridPage },
          ],
        },
        {
          element: <AppLayout />,
          children: [
            { path: 'virtualtours/:id', handle: named('virtualtour'), lazy: lazyTourPage },
            { path: 'media/:id', handle: named('virtualtour'), lazy: lazyTourPage },
            { path: 'creator/:creatorId/:creatorName?', handle: named('creatorPage', { filtersInLink: 'own' }), lazy: lazyCreatorPage },
            { path: 'tags', handle: named('popularTags'), lazy: lazyPopularTagsPage },
            { path: 'admin/mailing-list', handle: named('mailingList'), lazy: lazyMailingListPage },
            { path: 'admin/moderation', handle: named('moderation'), lazy: lazyModerationPage },
            { path: 'admin/classifications', handle: named('classifications'), lazy: lazyClassificationsPage },
            { path: 'admin/statistics', handle: named('statistics'), lazy: lazyStatisticsPage },
            { path: 'admin/users', handle: named('usersAdmin'), lazy: lazyUsersAdminPage },
          ],
        },
        {
          element: <PlainLayout />,
          children: [
            { path: 'resetpassword', handle: named('resetPasswordSend'), lazy: lazyResetPasswordPage },
            { path: 'registration', handle: named('registration'), lazy: lazyRegistrationPage },
            { path: 'create_account', handle: named('create_account'), lazy: lazyCreateAccountPage },
            { path: 'billing/plans', handle: named('billing_plans'), lazy: lazyPlansPage },
            { path: 'billing/success', handle: named('billing_success_page'), lazy: lazyBillingSuccessPage },
            { path: 'page-not-found', handle: named('crash'), lazy: lazyCrashPage },
            { path: '*', handle: named('notFound'), lazy: lazyNotFoundPage },
          ],
        },
      ],
    },
  ];
  return routes;
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createAppRoutes(queryClient));
}
