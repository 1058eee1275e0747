import type { TFunction } from 'i18next';

import type { RankedBy } from '../../../shared/api/generated/types.gen';
import type { FeedChoice } from '../../../shared/filters/filterState';

/**
 * The line that says what a page is ordered by (issue 18 part 8), from the answer's `ranked_by` and
 * the feed asked for: Saves & Follows and For You's trending stand-in say more than the order.
 */
export function feedRuleText(t: TFunction, feed: FeedChoice | null, rankedBy: RankedBy | null | undefined): string | null {
  if (!rankedBy) return null;
  if (feed === 'saves_follows' && rankedBy === 'newest') return t('feed.rules.savesFollows');
  if (feed === 'for_you' && rankedBy === 'trending') return t('feed.rules.forYouFallback');
  return t(`feed.rules.${rankedBy}`);
}
