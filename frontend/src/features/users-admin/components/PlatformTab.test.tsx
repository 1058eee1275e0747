import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { stubApi, type StubbedCall } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { PlatformTab } from './PlatformTab';

const CONFIG = 'GET /v2/config/';
const UPDATE = 'PUT /v2/config/';

function server() {
  let config = { restrict_access: false, images_approval: false, gui_version: '2.3.7' };
  return stubApi({
    [CONFIG]: () => ({ body: config }),
    [UPDATE]: (call: StubbedCall) => {
      const body = call.body as Partial<typeof config>;
      if (body.gui_version !== undefined && body.gui_version.length > 32) return { status: 400, body: { message: 'Invalid field', fields: { gui_version: 'At most 32 characters' } } };
      config = { ...config, ...body };
      return { body: config };
    },
  });
}

describe('the platform tab', () => {
  it('asks before restricting access and sends nothing when cancelled', async () => {
    const api = server();
    renderWithApp(<PlatformTab />);
    const restrict = await screen.findByRole('switch', { name: /Restrict access/ });

    fireEvent.click(restrict);
    const dialog = await screen.findByRole('dialog', { name: 'Restrict access to the platform?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(UPDATE)).toHaveLength(0);
    expect(restrict).not.toBeChecked();

    fireEvent.click(restrict);
    fireEvent.click(within(await screen.findByRole('dialog')).getByTestId('restrict-confirm'));
    await waitFor(() => expect(restrict).toBeChecked());
    expect(api.callsTo(UPDATE).map((call) => call.body)).toEqual([{ restrict_access: true }]);
  });

  it('turns image approval on at once, without a confirmation', async () => {
    const api = server();
    renderWithApp(<PlatformTab />);
    const images = await screen.findByRole('switch', { name: /Approve images/ });
    fireEvent.click(images);
    await waitFor(() => expect(images).toBeChecked());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo(UPDATE).map((call) => call.body)).toEqual([{ images_approval: true }]);
  });

  it('announces a new version only when it is 1 to 32 characters', async () => {
    const api = server();
    renderWithApp(<PlatformTab />);
    const version = await screen.findByRole('textbox', { name: /Front-end version/ });
    fireEvent.change(version, { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('platform-gui-version-save'));
    expect(await screen.findByText('Enter a version of 1 to 32 characters')).toBeInTheDocument();
    expect(api.callsTo(UPDATE)).toHaveLength(0);

    fireEvent.change(version, { target: { value: '2.4.0' } });
    fireEvent.click(screen.getByTestId('platform-gui-version-save'));
    await waitFor(() => expect(api.callsTo(UPDATE).map((call) => call.body)).toEqual([{ gui_version: '2.4.0' }]));
  });
});
