import { screen, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';

import { createI18n } from '../../shared/i18n/i18n';
import { STORAGE_KEYS } from '../../shared/storage/localStore';
import { createTestQueryClient, stubFetch } from '../../testing/render';
import { AppProviders } from '../providers';
import { createAppRoutes } from '../router';

function renderApp(path: string) {
  const queryClient = createTestQueryClient();
  const router = createMemoryRouter(createAppRoutes(queryClient), { initialEntries: [path] });
  render(
    <AppProviders queryClient={queryClient} i18n={createI18n()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

const CONFIG = '/v2/config/';

describe('the route guard in the router', () => {
  it('opens the crash page when the platform config cannot be loaded', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const router = renderApp('/feed');
    expect(await screen.findByText('We could not reach the server', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/page-not-found');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('sends signed-out visitors to registration when access is restricted, and stores the routes', async () => {
    stubFetch({ [CONFIG]: { restrict_access: true, images_approval: false } });
    const router = renderApp('/map');
    expect(await screen.findByText('Welcome to TourAtlas', { selector: 'h1' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/registration');
    expect(localStorage.getItem(STORAGE_KEYS.restrictAccess)).toBe('true');
    expect(localStorage.getItem(STORAGE_KEYS.previousRoute)).toBe('/map');
    expect(localStorage.getItem(STORAGE_KEYS.currentRoute)).toBe('/registration');
  });

  it('sends a signed-in user from registration to the feed', async () => {
    stubFetch({ [CONFIG]: { restrict_access: false, images_approval: false } });
    localStorage.setItem(STORAGE_KEYS.accessToken, 'header.e30.signature');
    const router = renderApp('/registration');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/feed'));
  });

  it('redirects / to the feed and shows the not-found page for unknown paths', async () => {
    stubFetch({ [CONFIG]: { restrict_access: false, images_approval: false } });
    const router = renderApp('/');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/feed'));
    await router.navigate('/some/deep/unknown/path');
    expect(await screen.findByRole('link', { name: 'Return to the home page' })).toHaveAttribute('href', '/');
  });
});
