import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { moderationUser } from '../testFixtures';
import { ActiveDialog } from './ActiveDialog';

const ACTIVATE = 'POST /v2/users/admin-user-activate-deactivate';

describe('the deactivation confirmation', () => {
  it('spells out what is drafted and deactivates only when confirmed', async () => {
    const api = stubApi({ [ACTIVATE]: { body: { message: 'The account is drafted', data: {} } } });
    const onClose = vi.fn();
    renderWithApp(<ActiveDialog user={moderationUser()} onClose={onClose} />);

    const dialog = await screen.findByRole('dialog', { name: 'Deactivate mara_q?' });
    const steps = within(dialog).getByTestId('cascade-steps');
    expect(steps).toHaveTextContent('The account is drafted: its owner cannot sign in.');
    expect(steps).toHaveTextContent('The creator profile is hidden.');
    expect(steps).toHaveTextContent('Custom hosts the account requested are withdrawn.');
    expect(steps).toHaveTextContent('All its 3 tours are moved to drafts.');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(api.callsTo(ACTIVATE)).toHaveLength(0);

    fireEvent.click(within(dialog).getByTestId('active-confirm'));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
    expect(api.callsTo(ACTIVATE).map((call) => call.body)).toEqual([{ userid: 42, is_active: false }]);
  });

  it('says reactivation puts the tours into drafts, and shows the server’s refusal', async () => {
    const api = stubApi({ [ACTIVATE]: { status: 403, body: { message: 'Administrators only' } } });
    const onClose = vi.fn();
    renderWithApp(<ActiveDialog user={moderationUser({ is_active: false, state: 'drafted', creatorId: null, tours_count: 1 })} onClose={onClose} />);

    const dialog = await screen.findByRole('dialog', { name: 'Reactivate mara_q?' });
    expect(within(dialog).getByTestId('cascade-steps')).toHaveTextContent('Its 1 tour waits in the owner’s drafts, to be published again.');
    expect(within(dialog).queryByText('The creator profile is shown again.')).toBeNull();

    fireEvent.click(within(dialog).getByTestId('active-confirm'));
    expect(await within(dialog).findByTestId('active-error')).toHaveTextContent('Administrators only');
    expect(api.callsTo(ACTIVATE).map((call) => call.body)).toEqual([{ userid: 42, is_active: true }]);
    expect(onClose).not.toHaveBeenCalled();
  });
});
