import { paths } from '../../shared/routing/paths';

/** Route names of spec §2 (the router gives each route one in its `handle`). */
export type RouteName =
  | 'root'
  | 'home'
  | 'gridHome'
  | 'mapHome'
  | 'mapCreatorLink'
  | 'gridCreatorLink'
  | 'virtualtour'
  | 'creatorPage'
  | 'popularTags'
  | 'mailingList'
  | 'moderation'
  | 'classifications'
  | 'statistics'
  | 'usersAdmin'
  | 'resetPasswordSend'
  | 'registration'
  | 'create_account'
  | 'crash'
  | 'billing'
  | 'billing_plans'
  | 'billing_success_page'
  | 'notFound';

/** Spec §2: the routes a signed-out visitor may open while access is restricted. */
export const ROUTES_OPEN_WHEN_RESTRICTED: ReadonlySet<RouteName> = new Set([
  'registration',
  'resetPasswordSend',
  'create_account',
  'billing',
  'billing_plans',
  'billing_success_page',
]);

/** The crash page never needs the config: it is where a failed config load leads. */
export function needsPlatformConfig(routeName: RouteName): boolean {
  return routeName !== 'crash';
}

export type ConfigState = { kind: 'loaded'; restrictAccess: boolean } | { kind: 'unavailable' };

export interface GuardInput {
  routeName: RouteName;
  signedIn: boolean;
  config: ConfigState;
}

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string };

const ALLOW: GuardDecision = { kind: 'allow' };
const redirectTo = (to: string): GuardDecision => ({ kind: 'redirect', to });

/** The route guard of spec §2, as a pure decision. */
export function decideRoute({ routeName, signedIn, config }: GuardInput): GuardDecision {
  if (!needsPlatformConfig(routeName)) return ALLOW;
  if (config.kind === 'unavailable') return redirectTo(paths.crash);
  if (config.restrictAccess && !signedIn && !ROUTES_OPEN_WHEN_RESTRICTED.has(routeName)) {
    return redirectTo(paths.registration);
  }
  if (signedIn && routeName === 'registration') return redirectTo(paths.feed);
  return ALLOW;
}
