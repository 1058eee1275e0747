import { act, screen, within } from '@testing-library/react';

import type { CreatorCard as CreatorCardData, MediaCard as MediaCardData } from '../../../shared/api/generated/types.gen';
import { resetFilterState } from '../../../shared/filters/filterState';
import { RealtimeConnection, type TokenSource } from '../../../shared/socket/realtimeConnection';
import { useRealtimeConnection } from '../../../shared/socket/useRealtime';
import { type FakeSocket, fakeSocketFactory } from '../../../testing/fakeSocket';
import { renderWithApp, stubFetch } from '../../../testing/render';
import { FeedPage } from './FeedPage';

const GRID = '/v2/user-recomendations/filtered-grid';
const tokens: TokenSource = { current: () => 'guest-token', subscribe: () => () => undefined, renew: async () => null };

const media: MediaCardData & { type: 'vt' } = {
  type: 'vt',
  guid: 'a1b2',
  title: 'Hermitage Museum',
  preview_picture: null,
  views: 499,
  saves: 9,
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
  followers: 41,
  vt_count: 21,
  views: 999,
  is_follow: false,
  locations: [],
  userid: 4,
};

function LiveFeed({ connection }: { connection: RealtimeConnection }) {
  useRealtimeConnection(connection);
  return <FeedPage />;
}

async function push(socket: FakeSocket, event: string, data: object) {
  await act(async () => {
    socket.push(event, data);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('the feed, live', () => {
  afterEach(() => resetFilterState());

  it('moves the counters of the cards on screen as other visitors save, view and follow', async () => {
    const fetchMock = stubFetch({ [GRID]: { total_items: 2, limit: 48, offset: 0, data: [media, creator] } });
    const { factory, sockets } = fakeSocketFactory();
    renderWithApp(<LiveFeed connection={new RealtimeConnection(tokens, factory)} />);
    const socket = sockets[0]!;
    act(() => socket.accept());
    const card = within(await screen.findByTestId('media-card'));
    expect(card.getByTestId('card-saves')).toHaveAttribute('data-value', '9');

    await push(socket, 'tour:counters', { id: 'a1b2', views: 500, likes: 3, saves: 10, shared: 0 });
    expect(card.getByTestId('card-saves')).toHaveAttribute('data-value', '10');
    expect(card.getByTestId('card-views')).toHaveAttribute('data-value', '500');
    expect(card.getByTitle('10 saves')).toBeInTheDocument();

    await push(socket, 'creator:counters', { id: 8, followers: 42, views: 1000, likes: 0 });
    expect(screen.getByTestId('creator-card-followers')).toHaveAttribute('data-value', '42');
    expect(fetchMock).toHaveBeenCalledTimes(1); // written into the grid's pages, never fetched again
  });
});
