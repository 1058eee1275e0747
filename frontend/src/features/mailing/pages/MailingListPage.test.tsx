import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';

import type { MembersDiffOut, SyncRunOut } from '../../../shared/api/generated/types.gen';
import { REALTIME_EVENTS } from '../../../shared/socket/events';
import { RealtimeConnection, type TokenSource } from '../../../shared/socket/realtimeConnection';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { type FakeSocket, fakeSocketFactory } from '../../../testing/fakeSocket';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { MailingListPage } from './MailingListPage';

const PING = 'GET /v2/mailing-list/ping';
const DIFF = 'GET /v2/mailing-list/members-diff';
const SYNC = 'POST /v2/mailing-list/members-sync';
const SYNC_STATE = 'GET /v2/mailing-list/members-sync';

/** Mantine and react-query in jsdom take long on a loaded machine. */
const SLOW_TEST_MS = 60_000;

const PING_OK = { health_status: "Everything's Chimpy!", list_id: 'a1b2c3d4e5', list_name: 'TourAtlas news', member_count: 3 };

function person(email: string) {
  return { email, first_name: 'Ann', last_name: 'Lee' };
}

/** The diff of `toSubscribe` and `toUnsubscribe`, paged like the server (limit 20). */
function diffAnswer(toSubscribe: string[], toUnsubscribe: string[], offset = 0): MembersDiffOut {
  const page = (emails: string[]) => ({ total_items: emails.length, data: emails.slice(offset, offset + 20).map(person) });
  return {
    to_subscribe: page(toSubscribe),
    to_unsubscribe: page(toUnsubscribe),
    consenting: toSubscribe.length + 1,
    subscribed: toUnsubscribe.length + 1,
    in_step: toSubscribe.length === 0 && toUnsubscribe.length === 0,
    limit: 20,
    offset,
  };
}

function run(fields: Partial<SyncRunOut>): SyncRunOut {
  return {
    run_id: 1,
    status: 'running',
    total: 0,
    done: 0,
    subscribed: 0,
    unsubscribed: 0,
    rejected: 0,
    error: null,
    started_at: '2026-11-28T07:00:00Z',
    finished_at: null,
    ...fields,
  };
}

function signInAsAdmin(): void {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '1', is_admin: true }));
}

const tokens: TokenSource = { current: () => 'admin-token', subscribe: () => () => undefined, renew: async () => null };

/** The page over a fake socket; the returned socket plays the server (accept, push). */
function renderLivePage(): FakeSocket {
  const { factory, sockets } = fakeSocketFactory();
  const connection = new RealtimeConnection(tokens, factory);
  connection.start();
  renderWithApp(<MailingListPage connection={connection} />, { path: '/admin/mailing-list' });
  return sockets[0]!;
}

async function pushRun(socket: FakeSocket, fields: Partial<SyncRunOut>): Promise<void> {
  await act(async () => {
    socket.push(REALTIME_EVENTS.mailingSync, run(fields));
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

const progress = () => screen.getByRole('progressbar', { name: 'Sync progress' });

describe('the mailing-list page', () => {
  afterEach(() => localStorage.clear());

  it('tells a member it is for administrators and asks the server nothing', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '7' }));
    const api = stubApi({});
    renderWithApp(<MailingListPage />, { path: '/admin/mailing-list' });
    expect(await screen.findByText('Only administrators can open this page.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  }, SLOW_TEST_MS);

  it('shows the connection, both sides of the diff with counts, and pages one side on its own', async () => {
    signInAsAdmin();
    const many = Array.from({ length: 25 }, (_, n) => `u${String(n).padStart(2, '0')}@example.com`);
    const api = stubApi({
      [PING]: { body: PING_OK },
      [DIFF]: (call) => ({ body: diffAnswer(many, ['gone@example.com'], Number(call.search.get('offset'))) }),
      [SYNC_STATE]: { body: { data: null } },
    });
    renderWithApp(<MailingListPage />, { path: '/admin/mailing-list' });

    expect(await screen.findByText('List “TourAtlas news” (a1b2c3d4e5)')).toBeInTheDocument();
    expect(screen.getByText('3 subscribed members')).toBeInTheDocument();
    const toSubscribe = await screen.findByTestId('mailing-toSubscribe');
    expect(within(toSubscribe).getByText('25 people')).toBeInTheDocument();
    expect(within(toSubscribe).getAllByRole('listitem')).toHaveLength(20);
    const toUnsubscribe = screen.getByTestId('mailing-toUnsubscribe');
    expect(within(toUnsubscribe).getByText('gone@example.com')).toBeInTheDocument();
    expect(screen.getByText('No sync has run yet.')).toBeInTheDocument();

    fireEvent.click(within(toSubscribe).getByRole('button', { name: '2' }));
    expect(await within(toSubscribe).findByText('u20@example.com')).toBeInTheDocument();
    expect(within(toSubscribe).getAllByRole('listitem')).toHaveLength(5);
    // The other side stays on its first page.
    expect(within(screen.getByTestId('mailing-toUnsubscribe')).getByText('gone@example.com')).toBeInTheDocument();
    expect(api.callsTo(DIFF).map((call) => call.search.get('offset'))).toContain('20');
  }, SLOW_TEST_MS);

  it('syncs with a progress bar that moves with the pushes, asking nothing meanwhile, then shows the result and the list in step', async () => {
    signInAsAdmin();
    let synced = false;
    let ended = false;
    const api = stubApi({
      [PING]: { body: PING_OK },
      [DIFF]: () => ({ body: ended ? diffAnswer([], []) : diffAnswer(['ann@example.com', 'bob@example.com'], ['gone@example.com']) }),
      [SYNC_STATE]: { body: { data: null } },
      [SYNC]: () => {
        synced = true;
        return { status: 202, body: { data: run({}) } };
      },
    });
    const socket = renderLivePage();
    await screen.findByText('ann@example.com');
    act(() => socket.accept());
    await waitFor(() => expect(api.callsTo(SYNC_STATE)).toHaveLength(2)); // on opening, and once connected
    expect(screen.getByText('No sync has run yet.')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Sync' }));
    expect(await screen.findByText('Comparing the list…')).toBeInTheDocument();
    expect(synced).toBe(true);

    await pushRun(socket, { total: 3, done: 0 });
    expect(screen.getByText('Syncing: 0 of 3')).toBeInTheDocument();
    await pushRun(socket, { total: 3, done: 2, subscribed: 2 });
    expect(screen.getByText('Syncing: 2 of 3')).toBeInTheDocument();
    expect(progress()).toHaveAttribute('aria-valuenow', '67');
    // While it runs, the page waits for the next push: it does not ask (it used to, every second).
    await act(() => new Promise((resolve) => setTimeout(resolve, 1500)));
    expect(api.callsTo(SYNC_STATE)).toHaveLength(2);
    // Pushes for another page's keys, or that are not a run, change nothing.
    await act(async () => {
      socket.push(REALTIME_EVENTS.mailingSync, { run_id: 1, status: 'running', done: 'three' });
      socket.push(REALTIME_EVENTS.crawlerStatus, { session_id: 1, status: 'running', total_tours: 9, new_tours: 9 });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(progress()).toHaveAttribute('aria-valuenow', '67');

    ended = true;
    await pushRun(socket, { status: 'completed', total: 3, done: 3, subscribed: 2, unsubscribed: 1, finished_at: '2026-11-28T07:01:00Z' });
    expect(await screen.findByTestId('mailing-sync-result')).toHaveTextContent('2 subscribed · 1 unsubscribed');
    expect(progress()).toHaveAttribute('aria-valuenow', '100');
    expect(await screen.findByTestId('mailing-in-step')).toHaveTextContent('In step');
    // The bar moved on pushes alone: the run was never asked for after the start.
    expect(api.callsTo(SYNC_STATE)).toHaveLength(2);
    expect(api.callsTo(SYNC)).toHaveLength(1);
  }, SLOW_TEST_MS);

  it('opened mid-sync, shows the figure read on opening and on connecting, and reads again after a reconnect', async () => {
    signInAsAdmin();
    const answers = [run({ total: 5, done: 2 }), run({ total: 5, done: 3 }), run({ total: 5, done: 3 }), run({ status: 'completed', total: 5, done: 5, subscribed: 5, finished_at: '2026-11-28T07:02:00Z' })];
    let reads = 0;
    const api = stubApi({
      [PING]: { body: PING_OK },
      [DIFF]: { body: diffAnswer(['ann@example.com'], []) },
      [SYNC_STATE]: () => ({ body: { data: answers[Math.min(reads++, answers.length - 1)] } }),
    });
    const socket = renderLivePage();
    expect(await screen.findByText('Syncing: 2 of 5')).toBeInTheDocument();

    // Connected: what was pushed before the page's socket joined is read once.
    act(() => socket.accept());
    expect(await screen.findByText('Syncing: 3 of 5')).toBeInTheDocument();
    await pushRun(socket, { total: 5, done: 4 });
    expect(screen.getByText('Syncing: 4 of 5')).toBeInTheDocument();
    expect(api.callsTo(SYNC_STATE)).toHaveLength(2);

    // Back after a lost connection: pushes may have been missed, so the run is read again; an answer
    // that says less than a push already shown (it left the server first) does not move the bar back.
    act(() => socket.disconnect());
    act(() => socket.accept());
    await waitFor(() => expect(api.callsTo(SYNC_STATE)).toHaveLength(3));
    expect(screen.getByText('Syncing: 4 of 5')).toBeInTheDocument();
    act(() => socket.accept());
    expect(await screen.findByTestId('mailing-sync-result')).toHaveTextContent('5 subscribed · 0 unsubscribed');
    expect(api.callsTo(SYNC_STATE)).toHaveLength(4);
  }, SLOW_TEST_MS);

  it('reads out a list that is not configured, and a stopped sync that can be resumed', async () => {
    signInAsAdmin();
    const notConfigured = { message: 'The mailing list is not configured: set MAILCHIMP_API_KEY and MAILCHIMP_LIST_ID.', fields: {} };
    const stopped = run({ status: 'failed', total: 5, done: 2, error: 'The mailing-list provider kept failing (500); try again later.' });
    const api = stubApi({
      [PING]: { status: 400, body: notConfigured },
      [DIFF]: { status: 400, body: notConfigured },
      [SYNC_STATE]: { body: { data: stopped } },
      [SYNC]: { status: 503, body: { message: 'The mailing-list provider kept failing (500); try again later.', fields: {} } },
    });
    renderWithApp(<MailingListPage />, { path: '/admin/mailing-list' });

    expect(await within(await screen.findByTestId('mailing-not-connected')).findByText(notConfigured.message)).toBeInTheDocument();
    expect(await within(await screen.findByTestId('mailing-diff-error')).findByText(notConfigured.message)).toBeInTheDocument();
    expect(await screen.findByText('The sync stopped')).toBeInTheDocument();
    expect(screen.getByText('Syncing: 2 of 5')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Resume sync' }));
    await waitFor(() => expect(api.callsTo(SYNC)).toHaveLength(1));
    expect(await screen.findAllByText('The mailing-list provider kept failing (500); try again later.')).toHaveLength(2);
  }, SLOW_TEST_MS);

  it('has every text in Russian with its plural forms', async () => {
    const { ru } = await import('../../../shared/i18n/locales/ru');
    expect(ru.mailingSync.diff.people_few).toBe('{{count}} человека');
    expect(ru.mailingSync.sync.failedTitle).toBe('Синхронизация остановилась');
  });
});
