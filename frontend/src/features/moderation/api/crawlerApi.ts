import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

import {
  classificationsDocumentTags,
  crawlerApproveCrawledTours,
  crawlerCrawledTours,
  crawlerListConfigurations,
  crawlerRejectCrawledTours,
  crawlerRemoveConfiguration,
  crawlerSaveConfiguration,
  crawlerSessions,
  crawlerSign,
  crawlerStart,
  crawlerStop,
} from '../../../shared/api/generated/sdk.gen';
import type {
  ConfigurationOut,
  ConfigurationWrite,
  CrawledTourApproval,
  CrawledTourOut,
  CrawledTourOutcome,
  SessionOut,
} from '../../../shared/api/generated/types.gen';

export type CrawlerConfiguration = ConfigurationOut;
export type CrawlerSession = SessionOut;
export type CrawledTour = CrawledTourOut;
export type CrawledOutcome = CrawledTourOutcome;
export type ApprovalChoices = Omit<CrawledTourApproval, 'ids'>;

export const CRAWLED_PAGE_SIZE = 20;
/** The sessions the settings tab shows (newest first). */
export const SESSIONS_SHOWN = 20;

export const crawlerKeys = {
  all: ['moderation', 'crawler'] as const,
  configurations: ['moderation', 'crawler', 'configurations'] as const,
  sessions: ['moderation', 'crawler', 'sessions'] as const,
  crawled: ['moderation', 'crawler', 'crawled'] as const,
  crawledPage: (offset: number) => ['moderation', 'crawler', 'crawled', 'page', offset] as const,
  crawledCount: ['moderation', 'crawler', 'crawled', 'count'] as const,
  suggestion: (text: string) => ['moderation', 'crawler', 'suggestion', text] as const,
};

/** GET /v2/crawler/configuration: every configuration with its latest session. */
export function configurationsQueryOptions() {
  return queryOptions({
    queryKey: crawlerKeys.configurations,
    queryFn: async ({ signal }) => (await crawlerListConfigurations({ signal, throwOnError: true })).data.data,
  });
}

/** GET /v2/crawler/sessions: the latest sessions of every configuration. */
export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: crawlerKeys.sessions,
    queryFn: async ({ signal }) => (await crawlerSessions({ query: { limit: SESSIONS_SHOWN }, signal, throwOnError: true })).data.data,
  });
}

/** GET /v2/crawler/tours: the crawled tours waiting for a decision, oldest first. */
export function crawledQueryOptions(offset: number) {
  return queryOptions({
    queryKey: crawlerKeys.crawledPage(offset),
    queryFn: async ({ signal }) =>
      (await crawlerCrawledTours({ query: { status: 'new', limit: CRAWLED_PAGE_SIZE, offset }, signal, throwOnError: true })).data,
    placeholderData: keepPreviousData,
  });
}

/** How many crawled tours wait (the tab's badge). */
export function crawledCountQueryOptions() {
  return queryOptions({
    queryKey: crawlerKeys.crawledCount,
    queryFn: async ({ signal }) => (await crawlerCrawledTours({ query: { status: 'new', limit: 1 }, signal, throwOnError: true })).data.total_items,
  });
}

export interface Suggestion {
  categoryId: number | null;
  tags: ReadonlyArray<{ id: number; name: string }>;
}

/** POST /v2/categories/document-tags: the category and tags the classifier suggests for a tour's texts. */
export function suggestionQueryOptions(title: string, description: string) {
  const text = `${title}\n${description}`;
  return queryOptions({
    queryKey: crawlerKeys.suggestion(text),
    queryFn: async ({ signal }): Promise<Suggestion> => {
      const { data } = await classificationsDocumentTags({ body: { documents: [title, description] }, signal, throwOnError: true });
      return { categoryId: data.category_id ?? null, tags: data.tags };
    },
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** Every crawler call changes what the lists show (not the suggestions): they are asked for again after it. */
function useCrawlerMutation<Input, Output>(call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () =>
      Promise.all(
        [crawlerKeys.configurations, crawlerKeys.sessions, crawlerKeys.crawled].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

export function useSaveConfiguration() {
  return useCrawlerMutation(async (body: ConfigurationWrite) => (await crawlerSaveConfiguration({ body, throwOnError: true })).data);
}

export function useRemoveConfiguration() {
  return useCrawlerMutation(async (id: number) => (await crawlerRemoveConfiguration({ body: { id }, throwOnError: true })).data);
}

export function useStartCrawl() {
  return useCrawlerMutation(async (configurationId: number) => (await crawlerStart({ body: { configuration_id: configurationId }, throwOnError: true })).data);
}

export function useStopCrawl() {
  return useCrawlerMutation(async (sessionId: number) => (await crawlerStop({ body: { session_id: sessionId }, throwOnError: true })).data);
}

export function useSignSession() {
  return useCrawlerMutation(async (sessionId: number) => (await crawlerSign({ body: { session_id: sessionId }, throwOnError: true })).data);
}

export function useApproveCrawled() {
  return useCrawlerMutation(
    async ({ ids, choices }: { ids: readonly number[]; choices: ApprovalChoices }) =>
      (await crawlerApproveCrawledTours({ body: { ...choices, ids: [...ids] }, throwOnError: true })).data,
  );
}

export function useRejectCrawled() {
  return useCrawlerMutation(async (ids: readonly number[]) => (await crawlerRejectCrawledTours({ body: { ids: [...ids] }, throwOnError: true })).data);
}
