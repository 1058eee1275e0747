import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';

import { RealtimeConnection, type TokenSource } from '../../../shared/socket/realtimeConnection';
import { addDays, todayIn } from '../../../shared/stats/range';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi, type StubbedAnswer, type StubbedCall } from '../../../testing/apiStub';
import { type FakeSocket, fakeSocketFactory } from '../../../testing/fakeSocket';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { viewerTimeZone } from '../model/metrics';
import { AnalyticsScreen } from './AnalyticsScreen';

const tokens: TokenSource = { current: () => 'creator-token', subscribe: () => () => undefined, renew: async () => null };

const CALLS = {
  totals: 'GET /v2/creators/creator-analytic-totals',
  views: 'GET /v2/creators/media-views-by-date',
  activity: 'GET /v2/creators/media-activity-by-date',
  table: 'GET /v2/creators/creator-analytics',
  adsTotals: 'GET /v2/creators/ads-analytic-totals',
  adsViews: 'GET /v2/creators/ads-views-by-date',
  adsActivity: 'GET /v2/creators/ads-activity-by-date',
  adsTable: 'GET /v2/creators/ads-analytics',
} as const;

/** The range fields every answer repeats, read from the call. */
function rangeOf(call: StubbedCall) {
  return { creator_id: 3, date_from: call.search.get('date_from')!, date_to: call.search.get('date_to')!, time_zone: call.search.get('time_zone')! };
}

/** Every day of the asked range, the last (today) with `today`'s counts and the others with `other`'s. */
function days(call: StubbedCall, counts: (isToday: boolean) => Record<string, number>) {
  const { date_from: from, date_to: to } = rangeOf(call);
  const data = [];
  for (let day = from; day <= to; day = addDays(day, 1)) data.push({ date: day, ...counts(day === to) });
  return { ...rangeOf(call), data };
}

function tours(count: number, views: (index: number) => number) {
  return Array.from({ length: count }, (_, index) => ({
    id: `tour-${index + 1}`,
    title: `Tour ${index + 1}`,
    preview_picture: null,
    status: index === 0 ? 'active' : 'draft',
    views: views(index),
    likes: 1,
    saves: 0,
    shared: 0,
  }));
}

interface TourWorld {
  totals?: Record<string, number>;
  tourCount?: number;
}

function tourRoutes({ totals = { views: 10, likes: 3, saves: 1, shared: 2, follows: 1 }, tourCount = 2 }: TourWorld = {}) {
  const all = tours(tourCount, (index) => 100 - index);
  return {
    [CALLS.totals]: (call: StubbedCall): StubbedAnswer => ({ body: { ...rangeOf(call), ...totals } }),
    [CALLS.views]: (call: StubbedCall): StubbedAnswer => ({ body: days(call, (isToday) => ({ views: isToday ? 4 : 0 })) }),
    [CALLS.activity]: (call: StubbedCall): StubbedAnswer => ({
      body: days(call, (isToday) => ({ likes: isToday ? 1 : 0, saves: 0, shared: 0, follows: 0 })),
    }),
    [CALLS.table]: (call: StubbedCall): StubbedAnswer => {
      const limit = Number(call.search.get('limit'));
      const offset = Number(call.search.get('offset'));
      return { body: { ...rangeOf(call), data: all.slice(offset, offset + limit), total_items: all.length, limit, offset } };
    },
  };
}

function renderScreen(kind: 'tours' | 'ads' = 'tours', claims: Record<string, unknown> = { sub: '7', creator_id: 3 }) {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken(claims));
  const { factory, sockets } = fakeSocketFactory();
  const connection = new RealtimeConnection(tokens, factory);
  connection.start();
  renderWithApp(<AnalyticsScreen kind={kind} connection={connection} />);
  const socket = sockets[0]!;
  act(() => socket.accept());
  return socket;
}

async function pushAnalytics(socket: FakeSocket, recent: Record<string, unknown>) {
  const now = new Date().toISOString();
  await act(async () => {
    socket.push('creator:analytics', { creator_id: 3, views: 1, likes: 1, saves: 0, shared: 0, followers: 0, recent: { since: now, until: now, tours: [], ads: [], ...recent } });
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

const total = (name: string) => screen.getByTestId(`analytics-total-${name}`);
const rowCell = (id: string, metric: string) => within(screen.getByTestId(`analytics-row-${id}`)).getByTestId(`analytics-cell-${metric}`);

describe('the Analytics screen', () => {
  it('shows skeletons, then the last 30 days of the viewer’s time zone: totals, charts and table', async () => {
    const api = stubApi(tourRoutes());
    renderScreen();
    expect(screen.getByTestId('analytics-loading')).toBeInTheDocument();

    expect(await screen.findByTestId('analytics-total-views')).toHaveTextContent('10');
    const timeZone = viewerTimeZone();
    const today = todayIn(timeZone);
    for (const call of [CALLS.totals, CALLS.views, CALLS.activity, CALLS.table]) {
      const [asked] = api.callsTo(call);
      expect(asked!.search.get('date_from')).toBe(addDays(today, -29));
      expect(asked!.search.get('date_to')).toBe(today);
      expect(asked!.search.get('time_zone')).toBe(timeZone);
    }
    expect(total('likes')).toHaveTextContent('3');
    expect(total('shares')).toHaveTextContent('2');
    expect(total('follows')).toHaveTextContent('1');
    expect(screen.getByTestId('analytics-chart-tours-reach')).toHaveTextContent('Views per day');
    expect(screen.getByTestId('analytics-chart-tours-reach')).toHaveTextContent(/Views from .*: 4 in all/);
    expect(screen.getByTestId('analytics-chart-tours-activity')).toHaveTextContent('Likes, saves, shares and new followers per day');
    const table = screen.getByTestId('analytics-table');
    expect(within(table).getAllByRole('row')).toHaveLength(3); // the header and two tours
    expect(rowCell('tour-1', 'views')).toHaveTextContent('100');
    expect(within(screen.getByTestId('analytics-row-tour-2')).getByText('Draft')).toBeInTheDocument();
    expect(screen.queryByTestId('analytics-pages')).not.toBeInTheDocument();
  });

  it('pages through the table with limit and offset', async () => {
    const api = stubApi(tourRoutes({ tourCount: 45 }));
    renderScreen();
    await screen.findByTestId('analytics-row-tour-1');
    expect(screen.getByTestId('analytics-page-range')).toHaveTextContent('1–20 of 45');
    expect(api.callsTo(CALLS.table)[0]!.search.get('limit')).toBe('20');

    fireEvent.click(within(screen.getByTestId('analytics-pages')).getByRole('button', { name: '3' }));
    expect(await screen.findByTestId('analytics-row-tour-41')).toBeInTheDocument();
    expect(screen.queryByTestId('analytics-row-tour-1')).not.toBeInTheDocument();
    expect(screen.getByTestId('analytics-page-range')).toHaveTextContent('41–45 of 45');
    expect(api.callsTo(CALLS.table).at(-1)!.search.get('offset')).toBe('40');
    expect(api.callsTo(CALLS.totals)).toHaveLength(1); // the rest of the screen is not asked again
  });

  it('says when there are no tours and nothing happened in the range', async () => {
    stubApi(tourRoutes({ totals: { views: 0, likes: 0, saves: 0, shared: 0, follows: 0 }, tourCount: 0 }));
    renderScreen();
    expect(await screen.findByTestId('analytics-empty-items')).toHaveTextContent('No tours yet');
    expect(screen.getByTestId('analytics-empty-range')).toHaveTextContent('No activity in this range');
    expect(screen.queryByTestId('analytics-table')).not.toBeInTheDocument();
    expect(screen.queryByTestId('analytics-chart-tours-reach')).not.toBeInTheDocument();
  });

  it('adds the pushed increments to the totals, today’s point and the rows, without asking again', async () => {
    const api = stubApi(tourRoutes());
    const socket = renderScreen();
    await screen.findByTestId('analytics-row-tour-1');
    const asked = api.calls.length;

    await pushAnalytics(socket, {
      views: 2,
      likes: 1,
      shares: 0,
      follows: 1,
      tours: [{ tour_id: 11, id: 'tour-2', views: 2, likes: 1, saves: 0, shares: 0 }],
    });

    expect(total('views')).toHaveTextContent('12');
    expect(total('views')).toHaveAttribute('data-changed', 'true');
    expect(total('likes')).toHaveTextContent('4');
    expect(total('follows')).toHaveTextContent('2');
    expect(total('saves')).toHaveAttribute('data-changed', 'false');
    expect(rowCell('tour-2', 'views')).toHaveTextContent('101');
    expect(rowCell('tour-2', 'likes')).toHaveTextContent('2');
    expect(rowCell('tour-1', 'views')).toHaveTextContent('100');
    expect(screen.getByTestId('analytics-chart-tours-reach')).toHaveTextContent(/Views from .*: 6 in all/);
    expect(api.calls).toHaveLength(asked);
  });

  it('leaves a range alone when the pushed events fall on a day outside it', async () => {
    stubApi(tourRoutes());
    const socket = renderScreen();
    await screen.findByTestId('analytics-row-tour-1');
    const lastYear = new Date(Date.now() - 400 * 86_400_000).toISOString();
    await pushAnalytics(socket, { since: lastYear, until: lastYear, views: 5 });
    expect(total('views')).toHaveTextContent('10');
  });

  it('loads afresh after a reconnect, as pushes sent meanwhile were lost', async () => {
    const api = stubApi(tourRoutes());
    const socket = renderScreen();
    await screen.findByTestId('analytics-row-tour-1');
    expect(api.callsTo(CALLS.totals)).toHaveLength(1);
    act(() => {
      socket.disconnect();
      socket.accept();
    });
    await waitFor(() => expect(api.callsTo(CALLS.totals)).toHaveLength(2));
    await waitFor(() => expect(api.callsTo(CALLS.table)).toHaveLength(2));
  });

  it('shows a readable error and asks again on retry', async () => {
    let failing = true;
    const routes = tourRoutes();
    const api = stubApi({ ...routes, [CALLS.totals]: (call) => (failing ? { status: 500, body: { message: 'Server error' } } : routes[CALLS.totals](call)) });
    renderScreen();
    expect(await screen.findByTestId('analytics-error')).toHaveTextContent('The analytics could not be loaded');
    failing = false;
    fireEvent.click(screen.getByTestId('analytics-retry'));
    expect(await screen.findByTestId('analytics-total-views')).toHaveTextContent('10');
    expect(api.callsTo(CALLS.totals)).toHaveLength(2);
  });

  it('tells an account without a creator profile why there is nothing to show', async () => {
    const refusal = { status: 400, body: { message: 'Name the creator: creator_id or user_id', fields: { creator_id: 'Name the creator: creator_id or user_id' } } };
    stubApi({ [CALLS.adsTotals]: refusal, [CALLS.adsViews]: refusal, [CALLS.adsActivity]: refusal, [CALLS.adsTable]: refusal });
    renderScreen('ads');
    expect(await screen.findByTestId('analytics-error')).toHaveTextContent('Analytics belong to a creator profile');
    expect(screen.queryByTestId('analytics-retry')).not.toBeInTheDocument();
  });
});

describe('an administrator', () => {
  it('picks a creator by username: every call names them, and the admin’s own pushes no longer count', async () => {
    const routes = tourRoutes();
    const api = stubApi({
      ...routes,
      'GET /v2/users/search-users': (call) => {
        const accounts = [
          { userid: 42, platform_username: 'mara_q', username: 'Mara Quay', email: 'mara@example.com', creatorId: 8 },
          { userid: 77, platform_username: 'mara_fan', username: 'Fan', email: 'fan@example.com', creatorId: null },
        ].filter((item) => item.platform_username.includes(call.search.get('searchPattern') ?? ''));
        return { body: { data: { data: accounts, total_items: accounts.length } } };
      },
    });
    const socket = renderScreen('tours', { sub: '1', is_admin: true });
    await screen.findByTestId('analytics-row-tour-1');
    expect(api.callsTo(CALLS.totals)[0]!.search.has('user_id')).toBe(false); // the admin's own at first

    const input = screen.getByRole('combobox', { name: /Creator/ });
    input.focus();
    fireEvent.click(input);
    fireEvent.change(input, { target: { value: 'mara' } });
    const listbox = await waitFor(() => document.getElementById(input.getAttribute('aria-controls') ?? '')!);
    const option = await waitFor(() => within(listbox).getByRole('option', { name: 'mara_q', hidden: true }));
    expect(within(listbox).queryByRole('option', { name: 'mara_fan', hidden: true })).not.toBeInTheDocument(); // no creator profile
    fireEvent.click(option);

    await waitFor(() => expect(api.callsTo(CALLS.totals).at(-1)!.search.get('user_id')).toBe('42'));
    await waitFor(() => expect(api.callsTo(CALLS.table).at(-1)!.search.get('user_id')).toBe('42'));
    expect(screen.queryByTestId('analytics-live')).not.toBeInTheDocument();
    await screen.findByText((_, element) => element?.getAttribute('data-testid') === 'analytics-content' && element.getAttribute('data-updating') === 'false');
    await pushAnalytics(socket, { views: 5 });
    expect(total('views')).toHaveTextContent('10');
  }, 60_000);
});

describe('the Ads Analytics screen', () => {
  function adRoutes(adCount: number) {
    const ads = Array.from({ length: adCount }, (_, index) => ({
      id: `ad-${index + 1}`,
      title: index === 0 ? 'Spring "sale", north' : `Ad ${index + 1}`,
      preview_picture: null,
      status: 'active',
      impressions: 200 - index,
      clicks: index === 0 ? 10 : 0,
    }));
    return {
      [CALLS.adsTotals]: (call: StubbedCall): StubbedAnswer => ({ body: { ...rangeOf(call), impressions: 400, clicks: 10 } }),
      [CALLS.adsViews]: (call: StubbedCall): StubbedAnswer => ({ body: days(call, (isToday) => ({ impressions: isToday ? 400 : 0 })) }),
      [CALLS.adsActivity]: (call: StubbedCall): StubbedAnswer => ({ body: days(call, (isToday) => ({ clicks: isToday ? 10 : 0 })) }),
      [CALLS.adsTable]: (call: StubbedCall): StubbedAnswer => {
        const limit = Number(call.search.get('limit'));
        const offset = Number(call.search.get('offset'));
        return { body: { ...rangeOf(call), data: ads.slice(offset, offset + limit), total_items: ads.length, limit, offset } };
      },
    };
  }

  it('shows impressions, clicks and the click-through rate, and moves them live', async () => {
    stubApi(adRoutes(2));
    const socket = renderScreen('ads');
    expect(await screen.findByTestId('analytics-total-impressions')).toHaveTextContent('400');
    expect(total('clicks')).toHaveTextContent('10');
    expect(total('ctr')).toHaveTextContent('2.5%');
    expect(rowCell('ad-2', 'ctr')).toHaveTextContent('0%');

    await pushAnalytics(socket, { impressions: 100, clicks: 5, ads: [{ ad_id: 1, id: 'ad-1', impressions: 100, clicks: 5 }] });
    expect(total('impressions')).toHaveTextContent('500');
    expect(total('ctr')).toHaveTextContent('3%');
    expect(rowCell('ad-1', 'clicks')).toHaveTextContent('15');
  });

  it('says when there are no ads', async () => {
    stubApi(adRoutes(0));
    renderScreen('ads');
    expect(await screen.findByTestId('analytics-empty-items')).toHaveTextContent('No ads yet');
  });

  const objectUrls = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };

  it('exports the totals, the days and every row of the table as a CSV file', async () => {
    const api = stubApi(adRoutes(3));
    const files: Blob[] = [];
    const names: string[] = [];
    // jsdom has no object URLs: the file handed to the browser is kept here instead.
    URL.createObjectURL = (blob: Blob) => {
      files.push(blob);
      return 'blob:analytics';
    };
    URL.revokeObjectURL = () => undefined;
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    renderScreen('ads');
    await screen.findByTestId('analytics-row-ad-1');

    fireEvent.click(screen.getByTestId('analytics-export-csv'));
    await waitFor(() => expect(screen.getByTestId('analytics-export-csv')).not.toHaveAttribute('data-loading'));
    expect(files).toHaveLength(1);
    const today = todayIn(viewerTimeZone());
    expect(names).toEqual([`touratlas-ads-analytics-${addDays(today, -29)}_${today}.csv`]);
    const text = await files[0]!.text();
    const lines = text.replace('\uFEFF', '').split('\r\n');
    expect(lines.slice(0, 4)).toEqual(['Totals', 'Impressions,Clicks,"Click-through rate, %"', '400,10,2.5', '']);
    expect(lines).toContain(`${today},400,10`);
    expect(lines).toContain('ad-1,"Spring ""sale"", north",active,200,10,5');
    expect(lines).toContain('ad-3,Ad 3,active,198,0,0');
    expect(api.callsTo(CALLS.adsTable).at(-1)!.search.get('limit')).toBe('200');
    click.mockRestore();
    Object.assign(URL, objectUrls);
  });
});
