import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, redirect, type RouteObject } from 'react-router';

import { CreateAccountPage } from '../features/auth/pages/CreateAccountPage';
import { RegistrationPage } from '../features/auth/pages/RegistrationPage';
import { ResetPasswordPage } from '../features/auth/pages/ResetPasswordPage';
import { BillingSuccessPage } from '../features/billing/pages/BillingSuccessPage';
import { PlansPage } from '../features/billing/pages/PlansPage';
import { CreatorPage } from '../features/creators/pages/CreatorPage';
import { CreatorGridPage } from '../features/feed/pages/CreatorGridPage';
import { FeedPage } from '../features/feed/pages/FeedPage';
import { MailingListPage } from '../features/mailing/pages/MailingListPage';
import { CrashPage } from '../features/platform/pages/CrashPage';
import { NotFoundPage } from '../features/platform/pages/NotFoundPage';
import { TourPage } from '../features/tours/pages/TourPage';
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
}

const named = (name: RouteName, extra: Omit<AppRouteHandle, 'name'> = {}): AppRouteHandle => ({ name, ...extra });

// The map bundles MapLibre (about 1 MB): load it only when a map route opens.
const lazyMapPage = async () => ({ Component: (await import('../features/map/pages/MapPage')).MapPage });

/** Spec §2 routes. Every child of the root passes the route guard (the root loader). */
export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
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
        { index: true, handle: named('root'), loader: () => redirect(paths.feed), element: <Navigate replace to={paths.feed} /> },
        { path: 'home', handle: named('home'), loader: () => redirect(paths.root), element: <Navigate replace to={paths.root} /> },
        {
          element: <AppLayout withCategories />,
          children: [
            { path: 'feed', handle: named('gridHome'), element: <FeedPage /> },
            { path: 'map', handle: named('mapHome', { fillViewport: true }), lazy: lazyMapPage },
            { path: ':creatorName/map', handle: named('mapCreatorLink', { fillViewport: true }), lazy: lazyMapPage },
            { path: ':creatorName/grid', handle: named('gridCreatorLink'), element: <CreatorGridPage /> },
          ],
        },
        {
          element: <AppLayout />,
          children: [
            { path: 'virtualtours/:id', handle: named('virtualtour'), element: <TourPage /> },
            { path: 'media/:id', handle: named('virtualtour'), element: <TourPage /> },
            { path: 'creator/:creatorId/:creatorName?', handle: named('creatorPage'), element: <CreatorPage /> },
            { path: 'admin/mailing-list', handle: named('mailingList'), element: <MailingListPage /> },
          ],
        },
        {
          element: <PlainLayout />,
          children: [
            { path: 'resetpassword', handle: named('resetPasswordSend'), element: <ResetPasswordPage /> },
            { path: 'registration', handle: named('registration'), element: <RegistrationPage /> },
            { path: 'create_account', handle: named('create_account'), element: <CreateAccountPage /> },
            { path: 'billing/plans', handle: named('billing_plans'), element: <PlansPage /> },
            { path: 'billing/success', handle: named('billing_success_page'), element: <BillingSuccessPage /> },
            { path: 'page-not-found', handle: named('crash'), element: <CrashPage /> },
            { path: '*', handle: named('notFound'), element: <NotFoundPage /> },
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
