import { decideRoute, type ConfigState, type RouteName } from './routeGuard';

const open: ConfigState = { kind: 'loaded', restrictAccess: false };
const restricted: ConfigState = { kind: 'loaded', restrictAccess: true };
const down: ConfigState = { kind: 'unavailable' };

describe('decideRoute', () => {
  it('lets anyone through when access is open', () => {
    expect(decideRoute({ routeName: 'gridHome', signedIn: false, config: open })).toEqual({ kind: 'allow' });
    expect(decideRoute({ routeName: 'virtualtour', signedIn: true, config: open })).toEqual({ kind: 'allow' });
  });

  it('sends every route to the crash page when the config cannot be loaded', () => {
    for (const routeName of ['gridHome', 'registration', 'billing_plans'] as RouteName[]) {
      expect(decideRoute({ routeName, signedIn: false, config: down })).toEqual({ kind: 'redirect', to: '/page-not-found' });
    }
  });

  it('never redirects away from the crash page itself', () => {
    expect(decideRoute({ routeName: 'crash', signedIn: false, config: down })).toEqual({ kind: 'allow' });
  });

  it.each<RouteName>(['root', 'home', 'gridHome', 'mapHome', 'virtualtour', 'creatorPage', 'mailingList', 'notFound'])(
    'sends a signed-out visitor from %s to registration when access is restricted',
    (routeName) => {
      expect(decideRoute({ routeName, signedIn: false, config: restricted })).toEqual({ kind: 'redirect', to: '/registration' });
    },
  );

  it.each<RouteName>(['registration', 'resetPasswordSend', 'create_account', 'billing', 'billing_plans', 'billing_success_page'])(
    'keeps %s open to signed-out visitors when access is restricted',
    (routeName) => {
      expect(decideRoute({ routeName, signedIn: false, config: restricted })).toEqual({ kind: 'allow' });
    },
  );

  it('lets signed-in users everywhere when access is restricted', () => {
    expect(decideRoute({ routeName: 'mapHome', signedIn: true, config: restricted })).toEqual({ kind: 'allow' });
  });

  it('sends a signed-in user opening registration to the feed', () => {
    expect(decideRoute({ routeName: 'registration', signedIn: true, config: open })).toEqual({ kind: 'redirect', to: '/feed' });
    expect(decideRoute({ routeName: 'registration', signedIn: true, config: restricted })).toEqual({ kind: 'redirect', to: '/feed' });
  });
});
