import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';

import { RealtimeConnection, type TokenSource } from '../../../shared/socket/realtimeConnection';
import { useRealtimeConnection } from '../../../shared/socket/useRealtime';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi, type StubbedCall } from '../../../testing/apiStub';
import { type FakeSocket, fakeSocketFactory } from '../../../testing/fakeSocket';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import type { ModerationTabKey } from '../model/tabs';
import { type QueueState, QueueView } from './QueueView';

const tokens: TokenSource = { current: () => 'admin-token', subscribe: () => () => undefined, renew: async () => null };

function session(id: number, overrides: Record<string, unknown> = {}) {
  return {
    session_id: id,
    configuration_id: 1,
    status: 'running',
    total_tours: 2,
    new_tours: 2,
    pid: 'host:1',
    pages_fetched: 5,
    pages_failed: 0,
    pages_waiting: 9,
    started_at: '2026-11-25T07:00:00Z',
    finished_at: null,
    signed_at: null,
    error: null,
    scheduled_for: null,
    ...overrides,
  };
}

function configuration(last: object | null, overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    name: 'Fake provider',
    vendor_id: 4,
    vendor_name: 'FakeTours',
    start_urls: [],
    sitemap_urls: ['https://fake.example/sitemap.xml'],
    rate_limit: 2,
    concurrency: 2,
    max_pages: 1000,
    max_depth: 3,
    tour_link_pattern: null,
    schedule_cron: null,
    schedule_next_at: null,
    is_active: true,
    created_at: '2026-11-24T07:00:00Z',
    last_session: last,
    ...overrides,
  };
}

function crawled(id: number, title: string) {
  return {
    id,
    session_id: 7,
    configuration_id: 1,
    configuration_name: 'Fake provider',
    vendor_id: 4,
    vendor_name: 'FakeTours',
    link: `https://fake.example/tours/${id}`,
    title,
    description: `A virtual tour of ${title}`,
    image: null,
    coordinate: null,
    status: 'new',
    tour_guid: null,
    created_at: '2026-11-25T07:01:00Z',
  };
}

function Screen({ connection, tab }: { connection: RealtimeConnection; tab: ModerationTabKey }) {
  useRealtimeConnection(connection);
  const [state, setState] = useState<QueueState>({ tab, kind: null, search: '', page: 1 });
  return <QueueView state={state} onChange={(next) => setState((current) => ({ ...current, ...next }))} connection={connection} />;
}

function start(tab: ModerationTabKey): FakeSocket {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '1', is_admin: true }));
  const { factory, sockets } = fakeSocketFactory();
  const connection = new RealtimeConnection(tokens, factory);
  renderWithApp(<Screen connection={connection} tab={tab} />);
  const socket = sockets[0]!;
  act(() => socket.accept());
  return socket;
}

async function push(socket: FakeSocket, data: object) {
  await act(async () => {
    socket.push('crawler:status', data);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

const counter = (scope: HTMLElement, name: string) => within(scope).getByTestId(`crawl-${name}`).getAttribute('data-value');

describe('the crawler settings tab', () => {
  it('shows each configuration with its latest session, whose counters climb with every push', async () => {
    let current = session(7);
    const api = stubApi({
      'GET /v2/crawler/configuration': () => ({ body: { data: [configuration(current)] } }),
      'GET /v2/crawler/sessions': () => ({ body: { data: [current] } }),
      'GET /v2/crawler/tours': { body: { data: [], total_items: 0, limit: 1, offset: 0 } },
    });
    const socket = start('crawlerSettings');
    const card = await screen.findByTestId('crawler-configuration');
    expect(card).toHaveTextContent('Fake provider');
    expect(card).toHaveTextContent('FakeTours');
    expect(counter(card, 'new')).toBe('2');
    expect(within(card).getByTestId('crawler-stop')).toBeInTheDocument();
    const before = api.calls.length;

    await push(socket, { session_id: 7, configuration_id: 1, status: 'running', total_tours: 6, new_tours: 5, pages_fetched: 14, pages_failed: 0 });
    expect(counter(card, 'pages')).toBe('14');
    expect(counter(card, 'total')).toBe('6');
    expect(counter(card, 'new')).toBe('5');
    const row = screen.getByTestId('crawler-session-row');
    expect(counter(row, 'new')).toBe('5');
    // Written from the push: no request was needed for it.
    expect(api.calls.slice(before).filter((call) => call.path !== '/v2/crawler/tours')).toEqual([]);

    // The end: the status changes, so the lists are asked for once more (for the end time).
    current = session(7, { status: 'finished', total_tours: 8, new_tours: 7, pages_fetched: 20, pages_failed: 1, finished_at: '2026-11-25T07:05:00Z' });
    await push(socket, { session_id: 7, configuration_id: 1, status: 'finished', total_tours: 8, new_tours: 7, pages_fetched: 20, pages_failed: 1 });
    expect(within(card).getByTestId('crawl-status')).toHaveAttribute('data-status', 'finished');
    await waitFor(() => expect(card).toHaveTextContent('Ended'));
    expect(within(card).getByTestId('crawler-start')).toBeInTheDocument();
    expect(within(card).getByTestId('crawler-sign')).toBeInTheDocument();
  });

  it('asks again for a session it does not know (started by another admin)', async () => {
    let sessions = [session(7, { status: 'finished' })];
    const api = stubApi({
      'GET /v2/crawler/configuration': () => ({ body: { data: [configuration(sessions[0] ?? null)] } }),
      'GET /v2/crawler/sessions': () => ({ body: { data: sessions } }),
    });
    const socket = start('crawlerSettings');
    await screen.findByTestId('crawler-session-row');
    sessions = [session(8, { status: 'queued', total_tours: 0, new_tours: 0, pages_fetched: 0 }), ...sessions];
    await push(socket, { session_id: 8, configuration_id: 1, status: 'queued', total_tours: 0, new_tours: 0, pages_fetched: 0, pages_failed: 0 });
    await waitFor(() => expect(screen.getAllByTestId('crawler-session-row')).toHaveLength(2));
    expect(api.callsTo('GET /v2/crawler/sessions').length).toBeGreaterThanOrEqual(2);
  });

  it('starts a configuration, shows its schedule, and says when there is no session yet', async () => {
    const scheduled = configuration(null, { schedule_cron: '0 3 * * 1', schedule_next_at: '2026-11-30T03:00:00Z' });
    const api = stubApi({
      'GET /v2/crawler/configuration': { body: { data: [scheduled] } },
      'GET /v2/crawler/sessions': { body: { data: [] } },
      'POST /v2/crawler/start': { body: session(9, { status: 'queued' }) },
    });
    start('crawlerSettings');
    const card = await screen.findByTestId('crawler-configuration');
    expect(card).toHaveTextContent('schedule 0 3 * * 1 (UTC)');
    expect(card).toHaveTextContent('next Nov 30, 2026');
    fireEvent.click(within(card).getByTestId('crawler-start'));
    await waitFor(() => expect(api.callsTo('POST /v2/crawler/start')).toHaveLength(1));
    expect(api.callsTo('POST /v2/crawler/start')[0]?.body).toEqual({ configuration_id: 1 });
    expect(screen.getByTestId('crawler-sessions-empty')).toBeInTheDocument();
  });

  it('shows the empty state', async () => {
    stubApi({ 'GET /v2/crawler/configuration': { body: { data: [] } }, 'GET /v2/crawler/sessions': { body: { data: [] } } });
    start('crawlerSettings');
    expect(await screen.findByTestId('crawler-empty')).toHaveTextContent('No crawler configured yet');
  });
});

describe('the crawler tours tab', () => {
  beforeAll(() => {
    if (!('fonts' in document)) {
      Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
    }
  });

  function server() {
    let waiting = [crawled(1, 'Harbour'), crawled(2, 'Granary')];
    return stubApi({
      'GET /v2/crawler/tours': () => ({ body: { data: waiting, total_items: waiting.length, limit: 20, offset: 0 } }),
      'GET /v2/categories/media-types': { body: { data: [{ id: 3, name: '360 Panorama' }] } },
      'GET /v2/categories/': { body: { data: [{ id: 5, name: 'Parks', image_search: null, source_image_search: null, subcategories: [] }] } },
      'POST /v2/categories/document-tags': { body: { tags: [{ id: 11, name: 'Roses', description: null, is_active: true, topic_id: 5 }], category_id: 5 } },
      'POST /v2/crawler/tours/approve': (call: StubbedCall) => {
        const { ids } = call.body as { ids: number[] };
        waiting = waiting.filter((tour) => !ids.includes(tour.id));
        return { body: { data: ids.map((id) => ({ id, status: 'approved', message: 'Published', fields: {}, guid: `g${id}` })), pending: waiting.length } };
      },
      'POST /v2/crawler/tours/reject': (call: StubbedCall) => {
        const { ids } = call.body as { ids: number[] };
        waiting = waiting.filter((tour) => !ids.includes(tour.id));
        return { body: { data: ids.map((id) => ({ id, status: 'rejected', message: 'Rejected', fields: {}, guid: null })), pending: waiting.length } };
      },
    });
  }

  it('lists the waiting tours with their source, and rejects one', async () => {
    const api = server();
    start('crawlerTours');
    const rows = await screen.findAllByTestId('crawled-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Harbour');
    expect(rows[0]).toHaveTextContent('Fake provider, session 7');
    fireEvent.click(within(rows[0]!).getByTestId('crawled-reject'));
    await waitFor(() => expect(screen.getAllByTestId('crawled-row')).toHaveLength(1));
    expect(api.callsTo('POST /v2/crawler/tours/reject')[0]?.body).toEqual({ ids: [1] });
  });

  it('publishes a tour with the suggested category and tags and the chosen media type', async () => {
    const api = server();
    start('crawlerTours');
    const rows = await screen.findAllByTestId('crawled-row');
    fireEvent.click(within(rows[1]!).getByTestId('crawled-approve'));
    const form = await screen.findByTestId('crawled-approve-form');
    // The classifier's category is chosen already; the media type is the admin's.
    await waitFor(() => expect(within(form).getByText('Suggested: Parks')).toBeInTheDocument());
    fireEvent.click(within(form).getByTestId('crawled-approve-submit'));
    expect(await within(form).findByText('Required')).toBeInTheDocument();
    expect(api.callsTo('POST /v2/crawler/tours/approve')).toHaveLength(0);

    const select = within(form).getByTestId('crawled-media-type');
    fireEvent.click(select);
    await waitFor(() => expect(select).toHaveAttribute('aria-expanded', 'true'));
    const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '');
    fireEvent.click(await within(listbox!).findByRole('option', { name: '360 Panorama', hidden: true }));
    fireEvent.click(within(form).getByTestId('crawled-approve-submit'));
    await waitFor(() => expect(api.callsTo('POST /v2/crawler/tours/approve')).toHaveLength(1));
    expect(api.callsTo('POST /v2/crawler/tours/approve')[0]?.body).toEqual({
      ids: [2],
      media_type_id: 3,
      category_id: 5,
      subcategory_id: null,
      tags: [{ id: 11 }],
      userid: null,
      third_party_creator: null,
      creator_website: null,
      address_str: null,
    });
    await waitFor(() => expect(screen.getAllByTestId('crawled-row')).toHaveLength(1));
    expect(screen.queryByTestId('crawled-approve-form')).not.toBeInTheDocument();
  });
});
