import { queryOptions } from '@tanstack/react-query';

import { discoverySearch } from '../../../shared/api/generated/sdk.gen';
import type { SearchResult } from '../../../shared/api/generated/types.gen';
import { searchQueryKeys } from './queryKeys';

export type SuggestionKind = SearchResult['type'];

/** Spec §5: '#' searches tags only, '@' creators only, a leading quote asks for the exact phrase. */
export type SearchPrefix = 'tags' | 'creators' | 'exact';

export function searchPrefixOf(text: string): SearchPrefix | null {
  const first = text.trimStart()[0];
  if (first === '#') return 'tags';
  if (first === '@') return 'creators';
  if (first === "'") return 'exact';
  return null;
}

/** Whether there is something to search for beyond the prefix ('#' alone finds nothing). */
export function isSearchable(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** Suggestions as the visitor types (spec §7 search): tours, creators, tags and places. */
export function suggestionsQueryOptions(text: string) {
  const searchData = text.trim();
  return queryOptions({
    queryKey: searchQueryKeys.suggestions(searchData),
    queryFn: async ({ signal }): Promise<SearchResult[]> =>
      (await discoverySearch({ query: { searchData }, signal, throwOnError: true })).data.data,
    enabled: isSearchable(searchData),
    staleTime: 60_000,
  });
}

const KIND_ORDER: readonly SuggestionKind[] = ['place', 'tour', 'creator', 'tag'];

/** Results grouped by kind for the dropdown (places first: they move the map), best first within a kind. */
export function groupSuggestions(results: readonly SearchResult[]): { kind: SuggestionKind; results: SearchResult[] }[] {
  return KIND_ORDER.map((kind) => ({ kind, results: results.filter((result) => result.type === kind) })).filter(
    (group) => group.results.length > 0,
  );
}

/** A creator result reads "Display Name @username": the two parts, for the dropdown and the link. */
export function splitCreatorText(text: string): { name: string; username: string | null } {
  const match = /^(.*?)\s*@([\w.~-]+)$/.exec(text.trim());
  return match ? { name: match[1] || match[2] || text, username: match[2] ?? null } : { name: text, username: null };
}
