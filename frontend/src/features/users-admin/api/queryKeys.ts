import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';

/** react-query keys of the admins' users and platform screen. */
export const usersAdminQueryKeys = {
  all: ['users-admin'] as const,
  users: ['users-admin', 'users'] as const,
  userList: (params: UserListParams) => ['users-admin', 'users', params] as const,
  settings: (userid: number) => ['users-admin', 'settings', userid] as const,
  accountSearch: (pattern: string) => ['users-admin', 'account-search', pattern] as const,
  betaTesters: (params: { search: string; offset: number }) => ['users-admin', 'beta-testers', params] as const,
  apiStatistic: (range: { from: string; to: string }) => ['users-admin', 'api-statistic', range] as const,
  rankSources: ['users-admin', 'rank-sources'] as const,
  ranks: ['users-admin', 'ranks'] as const,
  rankList: (kind: RankKind, params: { source: number | null; offset: number }) => ['users-admin', 'ranks', kind, params] as const,
  /** An account's tours (the transfer's choice): under the tour keys, so a moved tour refreshes them. */
  ownedTours: (userid: number) => [...tourQueryKeys.userTours(userid), 'transfer'] as const,
};

export type RankKind = 'tours' | 'creators';

export type UserStateFilter = 'all' | 'active' | 'drafted' | 'blocked' | 'deleted';
export type UserRoleFilter = 'admin' | 'cm' | 'creator' | 'potential_creator' | 'user';

export interface UserListParams {
  search: string;
  state: UserStateFilter;
  role: UserRoleFilter | null;
  offset: number;
}
