import { fireEvent, screen, waitFor } from '@testing-library/react';

import type {
  AdCard as AdCardData,
  CreatorCard as CreatorCardData,
  GridPage,
  MediaCard as MediaCardData,
} from '../../../shared/api/generated/types.gen';
import { useLoginDialogOpen } from '../../../shared/auth/loginDialog';
import { getFilterState, resetFilterState, updateFilterState } from '../../../shared/filters/filterState';
import { rememberTagLabels } from '../../../shared/filters/tagLabels';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { renderWithApp, stubFetch } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { GRID_PAGE_SIZE, MAX_RESULT_WINDOW, nextGridOffset, uniqueCards } from '../api/filteredGrid';
import { CreatorGridPage } from './CreatorGridPage';
import { FeedPage } from './FeedPage';

const GRID = '/v2/user-recomendations/filtered-grid';

const media: MediaCardData & { type: 'vt' } = {
  type: 'vt',
  guid: 'a1b2',
  title: 'Hermitage Museum',
  preview_picture: '/uploads/hermitage.jpg',
  views: 15_400,
  saves: 1_250,
  is_save: false,
  is_owned: false,
  created_ago: '2 days ago',
  media_type_id: 1,
  userid: 3,
};
const creator: CreatorCardData & { type: 'creator' } = {
  type: 'creator',
  id: 8,
  creator_name: 'Nordic Views',
  platform_username: 'nordic',
  logo: null,
  img_settings: { bgColor: 'white', logoScale: 10 },
  followers: 1_500_000,
  vt_count: 21,
  views: 999,
  is_follow: false,
  locations: [{ location: 'Oslo, Norway' }],
  userid: 4,
};
const ad: AdCardData & { type: 'ad' } = { type: 'ad', id: 5, title: 'Drone footage', preview_picture: null, link: 'https://www.example.com/drones', user_id: 2 };

describe('the feed', () => {
  afterEach(() => resetFilterState());

  it('shows media, creator and ad cards with formatted counts', async () => {
    const fetchMock = stubFetch({ [GRID]: { total_items: 3, limit: 48, offset: 0, data: [media, creator, ad] } });
    renderWithApp(<FeedPage />);

    const tour = await screen.findByRole('link', { name: /Hermitage Museum/ });
    expect(tour).toHaveAttribute('href', '/virtualtours/a1b2');
    expect(tour).toHaveTextContent('15K');
    expect(tour).toHaveTextContent('1.2K');
    expect(screen.getByRole('link', { name: /Nordic Views/ })).toHaveAttribute('href', '/creator/8/nordic');
    expect(screen.getByTestId('creator-card')).toHaveTextContent('1.5M');
    expect(screen.getByTestId('ad-card')).toHaveTextContent('Sponsored');
    expect(screen.getByTestId('card-grid')).toBeInTheDocument();

    const requested = new URL((fetchMock.mock.calls[0]?.[0] as Request).url);
    expect(requested.searchParams.get('limit')).toBe('48');
    expect(requested.searchParams.get('offset')).toBe('0');
  });

  it('asks the server with the current filters', async () => {
    updateFilterState({ categories: [3], searchPattern: 'castle' });
    const fetchMock = stubFetch({ [GRID]: { total_items: 0, limit: 48, offset: 0, data: [] } });
    renderWithApp(<FeedPage />);
    await screen.findByTestId('feed-empty');
    const requested = new URL((fetchMock.mock.calls[0]?.[0] as Request).url);
    expect(requested.searchParams.get('categories')).toBe('3');
    expect(requested.searchParams.get('searchPattern')).toBe('castle');
  });

  it('explains an empty feed', async () => {
    stubFetch({ [GRID]: { total_items: 0, limit: 48, offset: 0, data: [] } });
    renderWithApp(<FeedPage />);
    expect(await screen.findByText('Please specify category and/or location to show all media.')).toBeInTheDocument();
  });

  it('says so when the tours cannot be loaded', async () => {
    stubFetch({});
    renderWithApp(<FeedPage />);
    expect(await screen.findByText('Tours could not be loaded')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

function LoginDialogProbe() {
  return useLoginDialogOpen() ? <p data-testid="login-dialog-open" /> : null;
}

describe("each feed's rule and the empty states that help (issue 18 part 8)", () => {
  afterEach(() => resetFilterState());

  it.each([
    ['popular', 'popular', 'Popular: half the most viewed, half the newest'],
    ['trending', 'trending', 'Trending: most liked, saved and viewed in the last three weeks, the last days counting most'],
    ['for_you', 'taste', 'For You: tours like the ones you liked and saved'],
    ['for_you', 'trending', 'For You: trending for now. Like or save tours, or choose your interests, and it follows your taste'],
    ['saves_follows', 'newest', 'Saves & Follows: tours you saved and tours by creators you follow, newest first'],
    ['new', 'newest', 'Newest first'],
  ] as const)('on %s ranked by %s says so under the feed choice', async (feed, rankedBy, text) => {
    localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken());
    updateFilterState({ feed });
    stubFetch({ [GRID]: { total_items: 1, limit: 48, offset: 0, ranked_by: rankedBy, data: [media] } });
    renderWithApp(<FeedPage />);
    expect(await screen.findByTestId('feed-rule')).toHaveTextContent(text);
    expect(screen.getByTestId('grid-total')).toHaveTextContent('1 result');
  });

  it.each(['for_you', 'saves_follows'] as const)('asks a guest on %s to sign in, without asking the server for a grid', async (feed) => {
    updateFilterState({ feed });
    const fetchMock = stubFetch({ [GRID]: { total_items: 0, limit: 48, offset: 0, ranked_by: 'trending', data: [] } });
    renderWithApp(
      <>
        <FeedPage />
        <LoginDialogProbe />
      </>,
    );
    const prompt = await screen.findByTestId('feed-sign-in');
    expect(prompt).not.toHaveTextContent('Please specify category');
    expect(screen.queryByTestId('feed-rule')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('feed-sign-in-button'));
    expect(screen.getByTestId('login-dialog-open')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([input]) => String((input as Request).url).includes(GRID))).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'See what is popular' }));
    expect(getFilterState().feed).toBe('popular');
  });

  it('shows the tag a #tag search narrows to, removable', async () => {
    rememberTagLabels([{ id: 8, name: 'Castle' }]);
    updateFilterState({ tags: [8] });
    stubFetch({ [GRID]: { total_items: 1, limit: 48, offset: 0, ranked_by: 'newest', data: [media] } });
    renderWithApp(<FeedPage />);
    expect(await screen.findByTestId('tag-filter')).toHaveTextContent('Castle');
    fireEvent.click(screen.getByRole('button', { name: 'Remove the tag Castle' }));
    expect(getFilterState().tags).toEqual([]);
  });

  it('tells a signed-in visitor with nothing saved or followed how Saves & Follows fills up', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken());
    updateFilterState({ feed: 'saves_follows' });
    stubFetch({ [GRID]: { total_items: 0, limit: 48, offset: 0, ranked_by: 'newest', data: [] } });
    renderWithApp(<FeedPage />);
    expect(await screen.findByTestId('feed-empty')).toHaveTextContent('Nothing saved or followed yet');
    expect(screen.queryByText('Please specify category and/or location to show all media.')).not.toBeInTheDocument();
  });
});

describe('the cards', () => {
  afterEach(() => resetFilterState());

  it('carry their ids for the context menu and for returning to them', async () => {
    stubFetch({ [GRID]: { total_items: 3, limit: 48, offset: 0, data: [media, creator, ad] } });
    renderWithApp(<FeedPage />);
    const tour = await screen.findByTestId('media-card');
    expect(tour).toHaveAttribute('data-grid-item', 'a1b2');
    expect(tour).toHaveAttribute('data-userid', '3');
    expect(screen.getByTestId('creator-card')).toHaveAttribute('data-grid-item', '8');
    expect(screen.getByTestId('ad-card')).toHaveAttribute('data-external', 'true');
  });

  it('open a context menu with Open and Open in new tab', async () => {
    stubFetch({ [GRID]: { total_items: 1, limit: 48, offset: 0, data: [media] } });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderWithApp(<FeedPage />);
    fireEvent.contextMenu(await screen.findByText('Hermitage Museum'), { clientX: 40, clientY: 60 });
    const menu = await screen.findByTestId('card-context-menu');
    expect(menu).toHaveTextContent('Open');
    fireEvent.click(screen.getByText('Open in new tab'));
    expect(open).toHaveBeenCalledWith('/virtualtours/a1b2', '_blank', 'noopener');
    expect(localStorage.getItem(STORAGE_KEYS.gridItemId)).toBe('a1b2');
  });

  it("hide the save button on the visitor's own media", async () => {
    stubFetch({ [GRID]: { total_items: 2, limit: 48, offset: 0, data: [media, { ...media, guid: 'mine', title: 'Mine', is_owned: true }] } });
    renderWithApp(<FeedPage />);
    await screen.findByText('Mine');
    expect(screen.getAllByTestId('save-button')).toHaveLength(1);
  });

  it('hide the follow button from guests', async () => {
    stubFetch({ [GRID]: { total_items: 1, limit: 48, offset: 0, data: [creator] } });
    renderWithApp(<FeedPage />);
    await screen.findByText('Nordic Views');
    expect(screen.queryByTestId('follow-button')).not.toBeInTheDocument();
  });

  it('bring the visitor back to the card they opened (gridItemId)', async () => {
    localStorage.setItem(STORAGE_KEYS.gridItemId, 'a1b2');
    const scrolled = vi.spyOn(window.HTMLElement.prototype, 'scrollIntoView');
    stubFetch({ [GRID]: { total_items: 1, limit: 48, offset: 0, data: [media] } });
    renderWithApp(<FeedPage />);
    await screen.findByText('Hermitage Museum');
    await waitFor(() => expect(scrolled).toHaveBeenCalledWith({ block: 'center' }));
    expect(localStorage.getItem(STORAGE_KEYS.gridItemId)).toBeNull();
  });
});

describe('the creator-scoped grid', () => {
  afterEach(() => resetFilterState());

  it('finds the creator by name and shows their tours', async () => {
    const fetchMock = stubFetch({
      [GRID]: { total_items: 1, limit: 10, offset: 0, data: [creator] },
      '/v2/user-recomendations/creator-media/4': { total_items: 1, limit: 48, offset: 0, data: [media] },
    });
    renderWithApp(<CreatorGridPage />, { path: '/nordic/grid', routePath: ':creatorName/grid' });
    expect(await screen.findByText('Hermitage Museum')).toBeInTheDocument();
    expect(screen.getByTestId('creator-scope')).toHaveTextContent('Nordic Views');
    const lookup = new URL((fetchMock.mock.calls[0]?.[0] as Request).url);
    expect(lookup.searchParams.get('searchPattern')).toBe('@nordic');
    expect(lookup.searchParams.get('mode')).toBe('creators');
  });

  it('says so when there is no such creator', async () => {
    stubFetch({ [GRID]: { total_items: 0, limit: 10, offset: 0, data: [] } });
    renderWithApp(<CreatorGridPage />, { path: '/nobody/grid', routePath: ':creatorName/grid' });
    expect(await screen.findByText('There is no creator @nobody.')).toBeInTheDocument();
  });
});

describe('uniqueCards', () => {
  it('drops a card that a shifted page repeats', () => {
    const page = (data: GridPage['data']): GridPage => ({ total_items: 3, limit: GRID_PAGE_SIZE, offset: 0, ranked_by: 'newest', data });
    expect(uniqueCards([page([media, creator]), page([media, ad])]).map((card) => card.type)).toEqual(['vt', 'creator', 'ad']);
  });
});

describe('nextGridOffset', () => {
  const page = (count: number, total: number): GridPage => ({
    total_items: total,
    limit: GRID_PAGE_SIZE,
    offset: 0,
    ranked_by: 'newest',
    data: Array.from({ length: count }, () => media),
  });

  it('moves on by one page while the server counts more', () => {
    expect(nextGridOffset(page(GRID_PAGE_SIZE, 100), 0)).toBe(48);
    expect(nextGridOffset(page(GRID_PAGE_SIZE, 100), 48)).toBe(96);
  });

  it('stops at the end or on an empty page', () => {
    expect(nextGridOffset(page(4, 100), 96)).toBeUndefined();
    expect(nextGridOffset(page(0, 500), 48)).toBeUndefined();
  });

  it('never asks for a page past the server\'s result window', () => {
    const lastWhole = Math.floor(MAX_RESULT_WINDOW / GRID_PAGE_SIZE) * GRID_PAGE_SIZE - GRID_PAGE_SIZE;
    expect(nextGridOffset(page(GRID_PAGE_SIZE, 1_000_000), lastWhole - GRID_PAGE_SIZE)).toBe(lastWhole);
    expect(nextGridOffset(page(GRID_PAGE_SIZE, 1_000_000), lastWhole)).toBeUndefined();
  });
});
