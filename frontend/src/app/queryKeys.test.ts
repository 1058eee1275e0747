import { discoveryQueryKeys } from '../shared/discovery/discoveryQueryKeys';
import { tourQueryKeys } from '../shared/tours/tourQueryKeys';
import { feedQueryKeys } from '../features/feed/api/queryKeys';
import { mapQueryKeys } from '../features/map/api/queryKeys';
import { mediaQueryKeys } from '../features/media/api/queryKeys';
import { searchQueryKeys } from '../features/search/api/queryKeys';
import { toursQueryKeys } from '../features/tours/api/queryKeys';

function startsWith(key: readonly unknown[], prefix: readonly unknown[]): boolean {
  return prefix.every((part, index) => key[index] === part);
}

/**
 * The features' keys are invalidated and written through the shared prefixes (a saved tour refreshes
 * every card list, pushed counters reach every loaded card, new interests refresh the feed): each
 * feature key must start with the prefix it is reached by.
 */
describe('query keys across features', () => {
  const query = { sorting: 'newest' };

  it('puts every card list under the discovery keys', () => {
    const cardLists = [
      feedQueryKeys.filteredGrid(query, 'en'),
      feedQueryKeys.creatorMedia(7, query, 'en'),
      mapQueryKeys.filteredMap(query, 'en'),
      mapQueryKeys.spot(query, 'en'),
      mapQueryKeys.creatorPoints(7, query, 'en'),
      searchQueryKeys.suggestions('lake'),
      toursQueryKeys.similar('abc', 'en'),
    ];
    expect(cardLists.filter((key) => !startsWith(key, discoveryQueryKeys.all))).toEqual([]);
    expect(startsWith(feedQueryKeys.filteredGrid(query, 'en'), discoveryQueryKeys.filteredGrids)).toBe(true);
  });

  it('puts what a tour change makes stale under the tour keys', () => {
    const tourData = [
      toursQueryKeys.savedPages(7, 'en'),
      toursQueryKeys.userToursPages(7, query),
      toursQueryKeys.featured(7),
      mediaQueryKeys.lookup('https://example.com/tour', 'Matterport'),
      mediaQueryKeys.linkExists('https://example.com/tour'),
    ];
    expect(tourData.filter((key) => !startsWith(key, tourQueryKeys.all))).toEqual([]);
    expect(startsWith(toursQueryKeys.featured(7), tourQueryKeys.userTours(7))).toBe(true);
  });
});
