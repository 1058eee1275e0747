import { QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';

import { AppProviders } from '../app/providers';
import { createI18n } from '../shared/i18n/i18n';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
}

/** Render inside the app's providers and a memory router, as the app would. */
export function renderWithApp(ui: ReactNode, { path = '/feed', routePath = '*' }: { path?: string; routePath?: string } = {}): RenderResult {
  const router = createMemoryRouter([{ path: routePath, element: ui }], { initialEntries: [path] });
  return render(
    <AppProviders queryClient={createTestQueryClient()} i18n={createI18n()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

type JsonRoutes = Record<string, unknown>;

/** A fetch that answers the given paths with JSON and everything else with 404. */
export function stubFetch(routes: JsonRoutes): ReturnType<typeof vi.fn> {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname in routes) {
      return new Response(JSON.stringify(routes[url.pathname]), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    return new Response(JSON.stringify({ message: 'Not found' }), { status: 404, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
