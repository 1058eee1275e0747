import { fireEvent, screen, within } from '@testing-library/react';
import { useLocation } from 'react-router';

import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi, type StubbedAnswer, type StubbedCall } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { addDays, todayUtc } from '../../../shared/stats/range';
import { StatisticsPage } from './StatisticsPage';

const CALLS = {
  users: 'GET /v2/users/admin-stats',
  tours: 'GET /v2/virtualtours/admin-stats',
  creators: 'GET /v2/creators/admin-stats',
  vendors: 'GET /v2/vendors/admin-stats',
  ads: 'GET /v2/ads/admin-stats',
} as const;

/** A daily series over the asked days with `perDay(index)` on each; the answer wrapped as each call wraps it. */
function answer(domain: keyof typeof CALLS, allTime: number, perDay: (index: number) => number) {
  return (call: StubbedCall): StubbedAnswer => {
    const from = call.search.get('date_from')!;
    const to = call.search.get('date_to')!;
    const series = [];
    for (let day = from, index = 0; day <= to; day = addDays(day, 1), index += 1) series.push({ date: day, count: perDay(index) });
    const daily = { date_from: from, date_to: to, total: series.reduce((sum, point) => sum + point.count, 0), series };
    const data = { total: allTime, daily };
    return { body: domain === 'tours' || domain === 'ads' ? data : { data } };
  };
}

function Probe() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

function renderPage(query = '') {
  return renderWithApp(
    <>
      <StatisticsPage />
      <Probe />
    </>,
    { path: `/admin/statistics${query}` },
  );
}

const signInAs = (claims: Record<string, unknown>) => localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken(claims));
const value = (testId: string) => screen.getByTestId(testId).getAttribute('data-value');

describe('the admins’ statistics page', () => {
  it('shows the five totals of the link’s range and follows a preset into the link', async () => {
    signInAs({ sub: '1', is_admin: true });
    const api = stubApi({
      [CALLS.users]: answer('users', 12345, (index) => (index === 0 ? 3 : 0)),
      [CALLS.tours]: answer('tours', 80, () => 1),
      [CALLS.creators]: answer('creators', 9, () => 0),
      [CALLS.vendors]: answer('vendors', 4, (index) => (index === 1 ? 2 : 0)),
      [CALLS.ads]: answer('ads', 6, (index) => (index === 2 ? 5 : 0)),
    });
    renderPage('?days=7');

    expect(await screen.findByTestId('stat-tours')).toHaveTextContent('7');
    const today = todayUtc();
    for (const call of Object.values(CALLS)) {
      expect(api.callsTo(call)).toHaveLength(1);
      expect(api.callsTo(call)[0]!.search.get('date_from')).toBe(addDays(today, -6));
      expect(api.callsTo(call)[0]!.search.get('date_to')).toBe(today);
    }
    expect(value('stat-users')).toBe('3');
    expect(value('stat-creators')).toBe('0');
    expect(value('stat-vendors')).toBe('2');
    expect(value('stat-ads')).toBe('5');
    expect(screen.getByTestId('stat-users-all')).toHaveTextContent('12,345 in all');
    expect(screen.getByTestId('range-preset-7')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('range-summary')).toHaveTextContent('7 days');
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'New accounts per day',
      'New tours per day',
      'New creator profiles per day',
      'New providers per day',
      'New ads per day',
    ]);
    expect(within(screen.getByTestId('chart-tours')).getByText(/Tours: 7 created from/)).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('range-preset-90'));
    await screen.findByText((_, element) => element?.getAttribute('data-testid') === 'range-summary' && element.textContent === 'The range: 90 days');
    expect(screen.getByTestId('location')).toHaveTextContent('?days=90');
    expect(screen.getByTestId('range-preset-90')).toHaveAttribute('aria-pressed', 'true');
    await screen.findByText((_, element) => element?.getAttribute('data-testid') === 'stat-tours' && element.textContent === '90');
    expect(api.callsTo(CALLS.vendors).at(-1)!.search.get('date_from')).toBe(addDays(today, -89));

    fireEvent.click(screen.getByTestId('range-preset-30'));
    await screen.findByText((_, element) => element?.getAttribute('data-testid') === 'stat-tours' && element.textContent === '30');
    expect(screen.getByTestId('location')).toBeEmptyDOMElement(); // the default needs nothing in the link
  });

  it('says when nothing was created in the range', async () => {
    signInAs({ sub: '1', is_admin: true });
    stubApi({
      [CALLS.users]: answer('users', 5, () => 0),
      [CALLS.tours]: answer('tours', 5, () => 0),
      [CALLS.creators]: answer('creators', 5, () => 0),
      [CALLS.vendors]: answer('vendors', 5, () => 0),
      [CALLS.ads]: answer('ads', 5, () => 0),
    });
    renderPage('?from=2025-01-01&to=2025-01-31');
    expect(await screen.findByTestId('statistics-empty')).toHaveTextContent('Nothing new in this range');
    expect(screen.queryByTestId('chart-users')).not.toBeInTheDocument();
    expect(value('stat-users-all')).toBe('5');
    expect(screen.getByTestId('range-summary')).toHaveTextContent('31 days');
  });

  it('shows a readable error with a retry that asks again', async () => {
    signInAs({ sub: '1', is_admin: true });
    let failing = true;
    const tours = answer('tours', 1, () => 1);
    const api = stubApi({
      [CALLS.users]: answer('users', 1, () => 1),
      [CALLS.tours]: (call) => (failing ? { status: 500, body: { message: 'Server error' } } : tours(call)),
      [CALLS.creators]: answer('creators', 1, () => 1),
      [CALLS.vendors]: answer('vendors', 1, () => 1),
      [CALLS.ads]: answer('ads', 1, () => 1),
    });
    renderPage();
    expect(await screen.findByTestId('statistics-error')).toHaveTextContent('The statistics could not be loaded');
    failing = false;
    fireEvent.click(screen.getByTestId('statistics-retry'));
    expect(await screen.findByTestId('stat-tours')).toHaveTextContent('30');
    expect(api.callsTo(CALLS.tours)).toHaveLength(2);
    expect(api.callsTo(CALLS.users)).toHaveLength(1); // what had arrived is not asked for again
  });

  it('falls back to the last 30 days for a range the server would refuse, and says so', async () => {
    signInAs({ sub: '1', is_admin: true });
    const api = stubApi({
      [CALLS.users]: answer('users', 1, () => 0),
      [CALLS.tours]: answer('tours', 1, () => 1),
      [CALLS.creators]: answer('creators', 1, () => 0),
      [CALLS.vendors]: answer('vendors', 1, () => 0),
      [CALLS.ads]: answer('ads', 1, () => 0),
    });
    renderPage('?from=2024-01-01&to=2025-06-01');
    expect(await screen.findByTestId('range-link-problem')).toHaveTextContent('more than 366 days');
    expect(await screen.findByTestId('stat-tours')).toHaveTextContent('30');
    expect(api.callsTo(CALLS.users)[0]!.search.get('date_from')).toBe(addDays(todayUtc(), -29));
  });

  it('tells anybody but an admin that the page is for admins, and asks for nothing', async () => {
    signInAs({ sub: '7' });
    const api = stubApi({});
    renderPage();
    expect(await screen.findByTestId('statistics-admins-only')).toHaveTextContent('Statistics are for administrators.');
    expect(api.calls.filter((call) => call.path.includes('admin-stats'))).toEqual([]);
  });
});
