import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: 1,
        // Feeds should not jump under the visitor's eyes when they come back to the tab.
        refetchOnWindowFocus: false,
      },
    },
  });
}
