import { act, fireEvent, screen, within } from '@testing-library/react';

import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { RealtimeConnection, type TokenSource } from '../../../shared/socket/realtimeConnection';
import { useRealtimeConnection } from '../../../shared/socket/useRealtime';
import { type FakeSocket, fakeSocketFactory } from '../../../testing/fakeSocket';
import { renderWithApp, stubFetch } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { NavigationMenu } from './NavigationMenu';

const PENDING = '/v2/pending/approval-items';
const COUNTS = { data: [], pending: { new_user: 1, new_virtual_tour: 2, vt_edit: 0 }, total_items: 3, limit: 0, offset: 0 };
const tokens: TokenSource = { current: () => 'admin-token', subscribe: () => () => undefined, renew: async () => null };

function signIn(claims: Record<string, unknown>) {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken(claims));
}

function MenuWithRealtime({ connection }: { connection: RealtimeConnection }) {
  useRealtimeConnection(connection);
  return <NavigationMenu />;
}

function setUp() {
  const { factory, sockets } = fakeSocketFactory();
  const connection = new RealtimeConnection(tokens, factory);
  renderWithApp(<MenuWithRealtime connection={connection} />);
  const socket = sockets[0]!;
  act(() => socket.accept());
  return socket;
}

/** The server pushes a queue change; react-query tells the menu on its next tick. */
async function push(socket: FakeSocket, data: object) {
  await act(async () => {
    socket.push('moderation:queue', data);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('the moderation badge', () => {
  it('shows an admin how many items wait, on the avatar and beside Moderation', async () => {
    signIn({ sub: '1', is_admin: true });
    const fetchMock = stubFetch({ [PENDING]: COUNTS });
    setUp();
    expect(await screen.findByTestId('moderation-indicator')).toHaveTextContent('3');
    const asked = new URL((fetchMock.mock.calls[0]?.[0] as Request).url);
    expect(asked.searchParams.get('limit')).toBe('0'); // the counts, no items

    fireEvent.click(screen.getByTestId('profile-menu'));
    const moderation = await screen.findByRole('menuitem', { name: /Moderation/ });
    expect(within(moderation).getByTestId('moderation-count')).toHaveTextContent('3');
    expect(within(moderation).getByTestId('moderation-count')).toHaveAttribute('aria-label', '3 items wait for moderation');
  });

  it('grows and shrinks with the pushes, without asking again', async () => {
    signIn({ sub: '1', is_admin: true });
    const fetchMock = stubFetch({ [PENDING]: COUNTS });
    const socket = setUp();
    expect(await screen.findByTestId('moderation-indicator')).toHaveTextContent('3');

    await push(socket, { kind: 'new_virtual_tour', id: 'abc', action: 'added', pending: { ...COUNTS.pending, new_virtual_tour: 3 } });
    expect(await screen.findByTestId('moderation-indicator')).toHaveTextContent('4');

    await push(socket, { kind: 'new_user', id: 9, action: 'approved', pending: { new_user: 0, new_virtual_tour: 0, vt_edit: 0 } });
    await vi.waitFor(() => expect(screen.queryByTestId('moderation-indicator')).not.toBeInTheDocument());
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('is never asked for by anybody else', async () => {
    signIn({ sub: '7' });
    const fetchMock = stubFetch({ [PENDING]: COUNTS });
    setUp();
    fireEvent.click(screen.getByTestId('profile-menu'));
    await screen.findByRole('menuitem', { name: /Become a creator/ });
    expect(screen.queryByTestId('moderation-count')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([request]) => new URL((request as Request).url).pathname)).not.toContain(PENDING);
  });
});
