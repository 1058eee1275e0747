import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { VendorsTab } from './VendorsTab';

const LIST = 'GET /v2/vendors/moderation-vendors';
const CHANGE = 'PUT /v2/vendors/change-status';

function host(id: number, name: string, status: string) {
  return {
    vendor_id: id,
    vendor_name: name,
    link_header: null,
    group_name: null,
    preview_picture_required: false,
    is_white_label: false,
    website: null,
    link_pattern: null,
    embed_template: null,
    embed_kind: 'iframe',
    is_custom: id > 10,
    status,
    parent_vendor_id: null,
    userid: id > 10 ? 7 : null,
    platform_username: id > 10 ? 'mara' : null,
    tours: 3,
    created_at: '2026-11-20T10:00:00Z',
  };
}

describe('hosts tab', () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '1', is_admin: true })));

  it('withdraws an offered host and leaves a waiting one to Moderation', async () => {
    let kuula = host(3, 'Kuula', 'approved');
    const api = stubApi({
      [LIST]: () => ({ body: { data: [kuula, host(12, 'Studio X', 'pending')], total_items: 2, limit: 25, offset: 0 } }),
      [CHANGE]: (call) => {
        kuula = { ...kuula, status: (call.body as { status: string }).status };
        return { body: { message: 'The host has been withdrawn', data: kuula } };
      },
    });
    renderWithApp(<VendorsTab />);
    const rows = await screen.findAllByTestId('vendor-row');
    expect(within(rows[1]!).queryByTestId('vendor-toggle')).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('@mara');
    expect(within(rows[1]!).getByRole('link', { name: 'Decided in Moderation' })).toHaveAttribute('href', '/admin/moderation');

    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Withdraw Kuula' }));
    await waitFor(() => expect(api.callsTo(CHANGE)).toHaveLength(1));
    expect(api.callsTo(CHANGE)[0]?.body).toEqual({ vendor_id: 3, status: 'inactive' });
    await waitFor(() => expect(within(screen.getAllByTestId('vendor-row')[0]!).getByTestId('vendor-status')).toHaveTextContent('Withdrawn'));
    expect(within(screen.getAllByTestId('vendor-row')[0]!).getByRole('button', { name: 'Offer Kuula again' })).toBeInTheDocument();
  });

  it('says the list could not be loaded, and loads it again on request', async () => {
    let fail = true;
    stubApi({ [LIST]: () => (fail ? { status: 500, body: { message: 'boom' } } : { body: { data: [host(3, 'Kuula', 'approved')], total_items: 1, limit: 25, offset: 0 } }) });
    renderWithApp(<VendorsTab />);
    const error = await screen.findByTestId('vendors-error');
    fail = false;
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('vendor-row')).toHaveTextContent('Kuula');
  });
});
