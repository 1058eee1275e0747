import type { DayRange } from '../../../shared/stats/range';
import type { Domain } from '../model/series';

/** react-query keys of the admins' statistics. */
export const statisticsQueryKeys = {
  all: ['admin-stats'] as const,
  /** One admin-stats call over a range of UTC days. */
  domain: (domain: Domain, range: DayRange) => ['admin-stats', domain, range.from, range.to] as const,
};
