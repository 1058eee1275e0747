import { dictionaryQueryKeys } from '../../../shared/dictionaries/dictionaryQueryKeys';

/**
 * The admin lists sit under the dictionaries' prefix (['classifications']) and the hosts' (['vendors']):
 * invalidating that prefix after a change refreshes the admin lists and every picker that shows them.
 */
export const classificationsPrefix = [dictionaryQueryKeys.categories[0]] as const;
export const vendorsPrefix = dictionaryQueryKeys.vendors;

export const classificationsQueryKeys = {
  admin: [...classificationsPrefix, 'admin'] as const,
  list: (kind: string, params: object) => [...classificationsPrefix, 'admin', kind, params] as const,
  embeddings: [...classificationsPrefix, 'admin', 'tag-embeddings'] as const,
  vendors: (params: object) => [...vendorsPrefix, 'admin', params] as const,
};
