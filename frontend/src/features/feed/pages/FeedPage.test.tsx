import { screen } from '@testing-library/react';

import type {
  AdCard as AdCardData,
  CreatorCard as CreatorCardData,
  GridPage,
  MediaCard as MediaCardData,
} from '../../../shared/api/generated/types.gen';
import { resetFilterState, updateFilterState } from '../../../shared/filters/filterState';
import { renderWithApp, stubFetch } from '../../../testing/render';
import { GRID_PAGE_SIZE, nextGridOffset } from '../api/filteredGrid';
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

describe('nextGridOffset', () => {
  const page = (count: number, total: number): GridPage => ({
    total_items: total,
    limit: GRID_PAGE_SIZE,
    offset: 0,
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
});
