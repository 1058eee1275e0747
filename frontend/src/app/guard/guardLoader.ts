import type { QueryClient } from '@tanstack/react-query';
import { matchRoutes, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';

import { isSignedIn } from '../../shared/auth/session';
import { platformConfigQueryOptions } from '../../shared/platform/platformConfig';
import { readItem, STORAGE_KEYS, writeItem } from '../../shared/storage/localStore';
import { type ConfigState, decideRoute, needsPlatformConfig, type RouteName } from './routeGuard';

interface RouteHandle {
  name?: RouteName;
}

/** The spec's name of the deepest route matching a path (routes carry it in `handle.name`). */
export function routeNameAt(routes: RouteObject[], pathname: string): RouteName {
  const matches = matchRoutes(routes, pathname) ?? [];
  const named = matches.map((match) => (match.route.handle as RouteHandle | undefined)?.name).filter((name): name is RouteName => name !== undefined);
  return named.at(-1) ?? 'notFound';
}

/** Spec §2: every navigation stores the previous and the current route locally. */
export function recordNavigation(target: string): void {
  const current = readItem(STORAGE_KEYS.currentRoute);
  if (current === target) return;
  if (current !== null) writeItem(STORAGE_KEYS.previousRoute, current);
  writeItem(STORAGE_KEYS.currentRoute, target);
}

async function loadPlatformConfig(queryClient: QueryClient): Promise<ConfigState> {
  try {
    const config = await queryClient.fetchQuery(platformConfigQueryOptions());
    writeItem(STORAGE_KEYS.restrictAccess, String(config.restrict_access));
    return { kind: 'loaded', restrictAccess: config.restrict_access };
  } catch {
    return { kind: 'unavailable' };
  }
}

/**
 * The route guard as the root route's loader: it runs before every navigation renders, so a
 * protected page never flashes before its redirect.
 */
export function createGuardLoader(queryClient: QueryClient, routes: () => RouteObject[]) {
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const url = new URL(request.url);
    recordNavigation(url.pathname + url.search);
    const routeName = routeNameAt(routes(), url.pathname);
    const config: ConfigState = needsPlatformConfig(routeName)
      ? await loadPlatformConfig(queryClient)
      : { kind: 'loaded', restrictAccess: readItem(STORAGE_KEYS.restrictAccess) === 'true' };
    const decision = decideRoute({ routeName, signedIn: isSignedIn(), config });
    if (decision.kind === 'redirect') throw redirect(decision.to);
    return null;
  };
}
