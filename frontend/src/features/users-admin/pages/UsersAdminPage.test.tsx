import { fireEvent, screen } from '@testing-library/react';

import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { moderationUser } from '../testFixtures';
import { UsersAdminPage } from './UsersAdminPage';

const USERS = 'GET /v2/users/get-moderation-users';

/** Two Mantine comboboxes and a dialog in jsdom take long on a loaded machine. */
const SLOW_TEST_MS = 60_000;

describe('the users admin page', () => {
  afterEach(() => localStorage.clear());

  it('tells a signed-in member that it is for administrators, and asks the server nothing', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '7' }));
    const api = stubApi({});
    renderWithApp(<UsersAdminPage />, { path: '/admin/users' });
    expect(await screen.findByText('Only administrators can open this page.')).toBeInTheDocument();
    expect(api.callsTo(USERS)).toHaveLength(0);
  }, SLOW_TEST_MS);

  it('lists the accounts with their status and roles, and searches by username', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '1', is_admin: true }));
    const accounts = [moderationUser(), moderationUser({ userid: 43, platform_username: 'otto_k', is_active: false, state: 'drafted', creatorId: null, tours_count: 0 })];
    const api = stubApi({
      [USERS]: (call) => {
        const pattern = call.search.get('searchPattern') ?? '';
        const data = accounts.filter((item) => (item.platform_username ?? '').includes(pattern));
        return { body: { data, total_items: data.length, limit: 20, offset: 0 } };
      },
    });
    renderWithApp(<UsersAdminPage />, { path: '/admin/users' });
    const rows = await screen.findAllByTestId('user-row');
    expect(rows.map((row) => row.getAttribute('data-state'))).toEqual(['active', 'drafted']);
    expect(rows[0]).toHaveTextContent('Creator');
    expect(rows[1]).toHaveTextContent('Drafted');

    const search = screen.getByRole('searchbox', { name: 'Search users' });
    fireEvent.change(search, { target: { value: 'otto' } });
    await screen.findByText('1 account');
    expect(screen.getAllByTestId('user-row')).toHaveLength(1);
    expect(api.callsTo(USERS).at(-1)?.search.get('searchPattern')).toBe('otto');
  }, SLOW_TEST_MS);
});
