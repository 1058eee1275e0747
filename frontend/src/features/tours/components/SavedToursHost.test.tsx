import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { runAppAction } from '../../../shared/actions/appActions';
import type { MediaCard, SavedToursPage } from '../../../shared/api/generated/types.gen';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi, type StubbedCall } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { SavedToursHost } from './SavedToursHost';

const SAVED = 'GET /v2/virtualtours/saved/7';
const POST_SAVES = 'POST /v2/virtualtours/post_saves';

function card(guid: string, saves = 3): MediaCard {
  return {
    type: 'vt',
    guid,
    title: `Tour ${guid}`,
    preview_picture: null,
    views: 10,
    saves,
    is_save: true,
    is_owned: false,
    created_ago: '2 days ago',
    media_type_id: 1,
    userid: 3,
  };
}

/** The server's saved list: pages of `size` from what is saved now (unsaves take effect at once). */
function savedServer(guids: string[], size = 48) {
  const saved = [...guids];
  const routes = {
    [SAVED]: (call: StubbedCall) => {
      const offset = Number(call.search.get('offset'));
      const limit = Math.min(Number(call.search.get('limit')), size);
      const page: SavedToursPage = { data: saved.slice(offset, offset + limit).map((guid) => card(guid)), total_items: saved.length, limit, offset };
      return { body: page };
    },
    [POST_SAVES]: (call: StubbedCall) => {
      const { id } = call.body as { id: string };
      saved.splice(saved.indexOf(id), 1);
      return { body: { id, views: 10, likes: 0, saves: 2, shared: 0, isSave: false, user_save: 0 } };
    },
  };
  return { saved, routes };
}

async function openSavedTours(routes: Parameters<typeof stubApi>[0]) {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '7' }));
  const api = stubApi(routes);
  renderWithApp(<SavedToursHost />);
  await waitFor(() => expect(runAppAction('savedTours')).toBe(true));
  return api;
}

const shownGuids = () => screen.queryAllByTestId('tour-card').map((element) => element.getAttribute('data-guid'));

describe('the saved tours modal', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lists the user's saved tours from the saved-tours call, newest save first", async () => {
    const { routes } = savedServer(['c', 'b', 'a']);
    const api = await openSavedTours(routes);
    await waitFor(() => expect(shownGuids()).toEqual(['c', 'b', 'a']));
    const [call] = api.callsTo(SAVED);
    expect(call?.search.get('limit')).toBe('48');
    expect(call?.search.get('offset')).toBe('0');
    expect(api.calls.some((item) => item.path.includes('filtered-grid'))).toBe(false);
  });

  it('says so when nothing is saved', async () => {
    const { routes } = savedServer([]);
    await openSavedTours(routes);
    expect(await screen.findByTestId('saved-tours-empty')).toHaveTextContent('You have not saved any tours yet');
  });

  it('unsaving removes the card, and the last one leaves the empty state', async () => {
    const { saved, routes } = savedServer(['b', 'a']);
    const api = await openSavedTours(routes);
    await waitFor(() => expect(shownGuids()).toEqual(['b', 'a']));

    const first = screen.getAllByTestId('saved-tour')[0]!;
    fireEvent.click(within(first).getByTestId('unsave-button'));
    await waitFor(() => expect(shownGuids()).toEqual(['a']));
    await waitFor(() => expect(api.callsTo(POST_SAVES)).toHaveLength(1));
    expect(api.callsTo(POST_SAVES)[0]?.body).toEqual({ id: 'b', saves: 2, isSave: false });
    expect(saved).toEqual(['a']);

    fireEvent.click(screen.getByTestId('unsave-button'));
    expect(await screen.findByTestId('saved-tours-empty')).toBeInTheDocument();
  });

  it('brings the card back and explains when the server refuses', async () => {
    const { routes } = savedServer(['a']);
    await openSavedTours({ ...routes, [POST_SAVES]: { status: 404, body: { message: 'Unfortunately this Virtual Tour could not be found...' } } });
    await waitFor(() => expect(shownGuids()).toEqual(['a']));
    fireEvent.click(screen.getByTestId('unsave-button'));
    expect(await screen.findByTestId('message-dialog')).toHaveTextContent('Unfortunately this Virtual Tour could not be found...');
    await waitFor(() => expect(shownGuids()).toEqual(['a']));
  });

  it('loads further pages, after the cards left once some were unsaved', async () => {
    // No IntersectionObserver in jsdom: the list offers a button instead of loading on scroll.
    const { routes } = savedServer(['e', 'd', 'c', 'b', 'a'], 2);
    const api = await openSavedTours(routes);
    await waitFor(() => expect(shownGuids()).toEqual(['e', 'd']));
    fireEvent.click(screen.getAllByTestId('unsave-button')[0]!);
    await waitFor(() => expect(api.callsTo(POST_SAVES)).toHaveLength(1));

    fireEvent.click(await screen.findByRole('button', { name: 'Show more' }));
    // 'e' is gone on the server too: the next unseen save is at offset 1.
    await waitFor(() => expect(shownGuids()).toEqual(['d', 'c', 'b']));
    expect(api.callsTo(SAVED).map((call) => call.search.get('offset'))).toEqual(['0', '1']);
  });

  it('loads on scroll until every saved tour is shown', async () => {
    // The end of the list is always in view: each new observer reports it at once.
    class VisibleAtOnce {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe(): void {
        this.callback([{ isIntersecting: true } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
      }
      disconnect(): void {}
    }
    vi.stubGlobal('IntersectionObserver', VisibleAtOnce);
    const { routes } = savedServer(['e', 'd', 'c', 'b', 'a'], 2);
    const api = await openSavedTours(routes);
    await waitFor(() => expect(shownGuids()).toEqual(['e', 'd', 'c', 'b', 'a']));
    expect(api.callsTo(SAVED).map((call) => call.search.get('offset'))).toEqual(['0', '2', '4']);
    expect(screen.queryByTestId('saved-tours-more')).not.toBeInTheDocument();
  });
});
