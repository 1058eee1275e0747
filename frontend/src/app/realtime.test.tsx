import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';

import { NewVersionButton } from '../features/platform/components/NewVersionButton';
import { tourRoom } from '../shared/socket/events';
import { RealtimeConnection, type TokenSource } from '../shared/socket/realtimeConnection';
import { useRealtimeConnection, useRealtimeEvent, useRoom } from '../shared/socket/useRealtime';
import { fakeSocketFactory } from '../testing/fakeSocket';
import { renderWithApp, stubFetch } from '../testing/render';

const tokens: TokenSource = { current: () => 'guest-token', subscribe: () => () => undefined, renew: async () => null };

function setUp() {
  const { factory, sockets } = fakeSocketFactory();
  return { connection: new RealtimeConnection(tokens, factory), sockets };
}

function Shell({ connection, guid: firstGuid }: { connection: RealtimeConnection; guid: string | null }) {
  const [guid, setGuid] = useState(firstGuid);
  useRealtimeConnection(connection);
  useRoom(guid ? tourRoom(guid) : null, connection);
  const [ended, setEnded] = useState<string | null>(null);
  useRealtimeEvent<{ plan_name: string }>('billing:trial_ended', (data) => setEnded(data.plan_name), connection);
  return (
    <>
      <NewVersionButton />
      {ended && <p>Trial ended: {ended}</p>}
      <button type="button" onClick={() => setGuid(null)}>
        Another page
      </button>
    </>
  );
}

describe('the realtime connection in the app', () => {
  it("shows 'New version available' when the server announces another version, without asking", async () => {
    const fetchMock = stubFetch({ '/v2/config/app-version': { gui_version: '2.3.7' } });
    const { connection, sockets } = setUp();
    renderWithApp(<Shell connection={connection} guid={null} />);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const socket = sockets[0]!;
    act(() => socket.accept());
    expect(document.documentElement.dataset.realtime).toBe('connected');
    expect(screen.queryByTestId('new-version-button')).not.toBeInTheDocument();

    act(() => socket.push('app:version', { gui_version: '2.4.0' }));
    expect(await screen.findByTestId('new-version-button')).toHaveTextContent('New version available');
    expect(fetchMock).toHaveBeenCalledTimes(1); // written into the cache, not fetched again
  });

  it('refreshes the version after a reconnect (a push may have been missed meanwhile)', async () => {
    const fetchMock = stubFetch({ '/v2/config/app-version': { gui_version: '2.3.7' } });
    const { connection, sockets } = setUp();
    renderWithApp(<Shell connection={connection} guid={null} />);
    const socket = sockets[0]!;
    act(() => socket.accept());
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    act(() => {
      socket.disconnect();
      socket.accept();
    });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });

  it('joins the room of the tour on screen and leaves it when the page goes', () => {
    stubFetch({ '/v2/config/app-version': { gui_version: '2.3.7' } });
    const { connection, sockets } = setUp();
    const view = renderWithApp(<Shell connection={connection} guid="abc" />);
    const socket = sockets[0]!;
    act(() => socket.accept());
    expect(socket.sent).toEqual([['join', 'tour:abc']]);
    fireEvent.click(screen.getByRole('button', { name: 'Another page' })); // a page about no tour
    expect(socket.sent).toEqual([
      ['join', 'tour:abc'],
      ['leave', 'tour:abc'],
    ]);
    view.unmount();
    expect(socket.disconnects).toBe(1);
    expect(document.documentElement.dataset.realtime).toBe('disconnected');
  });

  it('hands other events to the components listening for them', async () => {
    stubFetch({ '/v2/config/app-version': { gui_version: '2.3.7' } });
    const { connection, sockets } = setUp();
    renderWithApp(<Shell connection={connection} guid={null} />);
    const socket = sockets[0]!;
    act(() => socket.accept());
    act(() => socket.push('billing:trial_ended', { subscription_id: 1, plan_name: 'Creator', end_time: null }));
    expect(await screen.findByText('Trial ended: Creator')).toBeInTheDocument();
  });
});
