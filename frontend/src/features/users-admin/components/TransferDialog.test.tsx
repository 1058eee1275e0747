import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { moderationUser } from '../testFixtures';
import { TransferDialog } from './TransferDialog';

const SEARCH = 'GET /v2/users/search-users';
const TOURS = 'GET /v2/virtualtours/user/42';
const TRANSFER = 'PUT /v2/users/vt-transfer';

function tour(guid: string, title: string, status = 'active') {
  return { guid, title, status };
}

function server() {
  return stubApi({
    [SEARCH]: (call) => {
      const pattern = call.search.get('searchPattern') ?? '';
      const accounts = [
        { userid: 42, platform_username: 'mara_q', username: 'Mara Quay', email: 'mara@example.com', creatorId: 8 },
        { userid: 77, platform_username: 'otto_k', username: 'Otto Keel', email: 'otto@example.com', creatorId: null },
      ].filter((item) => item.platform_username.includes(pattern));
      return { body: { data: { data: accounts, total_items: accounts.length } } };
    },
    [TOURS]: { body: { data: [tour('g1', 'Tide mill'), tour('g2', 'Old quay', 'draft'), tour('g3', 'Salt marsh')], total_items: 3, limit: 200, offset: 0 } },
    [TRANSFER]: (call) => {
      const body = call.body as { tours: string[] | null };
      const moved = body.tours ?? ['g1', 'g2', 'g3'];
      return { body: { message: `${moved.length} tours transferred`, data: { transferred: moved.length, tours: moved } } };
    },
  });
}

/** Type into the receiver's search and click the account the server answers. */
async function pickTarget(dialog: HTMLElement, typed: string, option: RegExp) {
  const input = within(dialog).getByRole('combobox', { name: /Receiving account/ });
  input.focus();
  fireEvent.click(input);
  fireEvent.change(input, { target: { value: typed } });
  await waitFor(() => expect(input).toHaveAttribute('aria-expanded', 'true'));
  const found = await waitFor(() => within(document.getElementById(input.getAttribute('aria-controls') ?? '')!).getByRole('option', { name: option, hidden: true }));
  fireEvent.click(found);
  await waitFor(() => expect((input as HTMLInputElement).value).toMatch(option));
}

/** Two Mantine comboboxes and a dialog in jsdom take long on a loaded machine. */
const SLOW_TEST_MS = 60_000;

describe('the tour transfer', () => {
  it('wants a receiving account other than the giving one and at least one chosen tour', async () => {
    const api = server();
    renderWithApp(<TransferDialog user={moderationUser()} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Transfer tours of mara_q' });

    fireEvent.click(within(dialog).getByTestId('transfer-review'));
    expect(within(dialog).getByText('Choose the account that receives the tours')).toBeInTheDocument();

    await pickTarget(dialog, 'mara', /mara_q/);
    fireEvent.click(within(dialog).getByTestId('transfer-review'));
    expect(within(dialog).getByText('Choose an account other than the giving one')).toBeInTheDocument();

    await pickTarget(dialog, 'otto', /otto_k/);
    fireEvent.click(within(dialog).getByLabelText('Only the chosen ones'));
    await within(dialog).findByTestId('transfer-tours');
    fireEvent.click(within(dialog).getByTestId('transfer-review'));
    expect(within(dialog).getByText('Choose at least one tour')).toBeInTheDocument();
    expect(api.callsTo(TRANSFER)).toHaveLength(0);
  }, SLOW_TEST_MS);

  it('moves the chosen tours after a confirmation and shows the server’s answer', async () => {
    const api = server();
    renderWithApp(<TransferDialog user={moderationUser()} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Transfer tours of mara_q' });

    await pickTarget(dialog, 'otto', /otto_k/);
    fireEvent.click(within(dialog).getByLabelText('Only the chosen ones'));
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Choose Tide mill' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Choose Salt marsh' }));
    fireEvent.click(within(dialog).getByTestId('transfer-review'));

    expect(await within(dialog).findByText('2 tours of mara_q will belong to otto_k.')).toBeInTheDocument();
    expect(api.callsTo(TRANSFER)).toHaveLength(0);
    fireEvent.click(within(dialog).getByTestId('transfer-confirm'));

    expect(await within(dialog).findByTestId('transfer-result')).toHaveTextContent('2 tours transferred');
    await waitFor(() => expect(api.callsTo(TRANSFER).map((call) => call.body)).toEqual([{ from_userid: 42, to_userid: 77, tours: ['g1', 'g3'] }]));
  }, SLOW_TEST_MS);
});
