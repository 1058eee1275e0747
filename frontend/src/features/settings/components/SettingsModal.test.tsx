import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { runAppAction } from '../../../shared/actions/appActions';
import { closeSettingsDialog, openSettingsDialog } from '../../../shared/settings/settingsDialog';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi, type StubbedCall } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken, testUser } from '../../../testing/users';
import { SettingsHost } from './SettingsHost';
import { SettingsModal } from './SettingsModal';

const CATEGORIES = {
  data: [
    { id: 1, name: 'Museums & Galleries', image_search: null, source_image_search: null, subcategories: [] },
    { id: 2, name: 'Nature', image_search: null, source_image_search: null, subcategories: [] },
    { id: 3, name: 'Hotels', image_search: null, source_image_search: null, subcategories: [] },
  ],
};

function signedIn(routes: Parameters<typeof stubApi>[0] = {}) {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken());
  return stubApi({
    'GET /v2/users/': { body: testUser() },
    'GET /v2/categories/': { body: CATEGORIES },
    'GET /v2/users/user-interests': { body: { data: [{ category_id: 2, name: 'Nature', position: 0 }] } },
    'GET /v2/users/users-info-check': (call: StubbedCall) => ({
      body: { valid: true, platform_username_available: call.search.get('platform_username') !== 'taken_name' },
    }),
    ...routes,
  });
}

/** Open a Mantine Select and click one of its options. */
async function pick(select: HTMLElement, option: string): Promise<void> {
  fireEvent.click(select);
  await waitFor(() => expect(select).toHaveAttribute('aria-expanded', 'true'));
  const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '');
  fireEvent.click(within(listbox!).getByRole('option', { name: option, hidden: true }));
}

describe('the settings modal', () => {
  afterEach(() => closeSettingsDialog());

  it('opens on Account from the profile menu and saves a changed name', async () => {
    const api = signedIn({
      'PUT /v2/users/user-params': (call: StubbedCall) => ({
        body: { message: 'saved', data: testUser({ first_name: 'Augusta' }), pending_fields: [], echo: call.body },
      }),
    });
    renderWithApp(<SettingsHost />); // registers the action, fetches the modal when it opens
    await waitFor(() => expect(runAppAction('settings')).toBe(true));
    const firstName = await screen.findByLabelText('First name');
    expect(firstName).toHaveValue('Ada');
    fireEvent.change(firstName, { target: { value: 'Augusta' } });
    fireEvent.click(screen.getByTestId('account-save'));
    expect(await screen.findByText('Your account has been saved')).toBeInTheDocument();
    expect(api.callsTo('PUT /v2/users/user-params')[0]?.body).toEqual({ userid: 7, params: { first_name: 'Augusta' } });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.userData) ?? '{}').first_name).toBe('Augusta');
  });

  it('checks a new username live and refuses to save a taken one', async () => {
    const api = signedIn();
    openSettingsDialog('account');
    renderWithApp(<SettingsModal />);
    const username = await screen.findByTestId('settings-username');
    fireEvent.change(username, { target: { value: 'taken_name' } });
    expect(await screen.findByText('This username is already taken')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('account-save'));
    expect(api.callsTo('PUT /v2/users/user-params')).toHaveLength(0);
    fireEvent.change(username, { target: { value: 'free_name' } });
    expect(await screen.findByTestId('username-available')).toBeInTheDocument();
  });

  it('shows the server message on 409 and a saving error otherwise', async () => {
    let status = 409;
    signedIn({ 'PUT /v2/users/user-params': () => ({ status, body: { message: 'An earlier edit is still waiting for approval' } }) });
    openSettingsDialog('account');
    renderWithApp(<SettingsModal />);
    fireEvent.change(await screen.findByLabelText('Last name'), { target: { value: 'Byron' } });
    fireEvent.click(screen.getByTestId('account-save'));
    expect(await screen.findByText('An earlier edit is still waiting for approval')).toBeInTheDocument();
    status = 500;
    fireEvent.click(screen.getByTestId('account-save'));
    expect(await screen.findByText('User saving error')).toBeInTheDocument();
  });

  it('does not let a social account edit its email', async () => {
    signedIn({ 'GET /v2/users/': { body: testUser({ auth_system: 'google' }) } });
    openSettingsDialog('account');
    renderWithApp(<SettingsModal />);
    expect(await screen.findByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByText(/You sign in with Google/)).toBeInTheDocument();
  });

  it('edits interests: a duplicate is refused, a valid list is saved', async () => {
    const api = signedIn({
      'PUT /v2/users/user-interests': (call: StubbedCall) => ({
        body: {
          data: (call.body as { interests: { category_id: number }[] }).interests.map((interest, position) => ({
            category_id: interest.category_id,
            name: CATEGORIES.data.find((category) => category.id === interest.category_id)?.name ?? '',
            position,
          })),
        },
      }),
    });
    openSettingsDialog('interests');
    renderWithApp(<SettingsModal />);
    const editor = await screen.findByTestId('interests-editor');
    expect(within(editor).getByText('1 interest chosen')).toBeInTheDocument();
    fireEvent.click(within(editor).getByTestId('interest-add'));
    fireEvent.click(within(editor).getByTestId('interests-save'));
    expect(await within(editor).findByText('Choose a category', { selector: '.mantine-InputWrapper-error' })).toBeInTheDocument();

    const second = within(editor).getByLabelText('Interest 2');
    await pick(second, 'Nature');
    expect(await within(editor).findByText('You already have this interest')).toBeInTheDocument();
    fireEvent.click(within(editor).getByTestId('interests-save'));
    expect(api.callsTo('PUT /v2/users/user-interests')).toHaveLength(0);

    await pick(second, 'Hotels');
    fireEvent.click(within(editor).getByTestId('interests-save'));
    expect(await screen.findByText('Your interests have been saved')).toBeInTheDocument();
    expect(api.callsTo('PUT /v2/users/user-interests')[0]?.body).toEqual({ interests: [{ category_id: 2 }, { category_id: 3 }] });
  });

  it('stops adding at 20 interests', async () => {
    signedIn({
      'GET /v2/users/user-interests': {
        body: { data: Array.from({ length: 20 }, (_, position) => ({ category_id: position + 1, name: `C${position}`, position })) },
      },
    });
    openSettingsDialog('interests');
    renderWithApp(<SettingsModal />);
    const editor = await screen.findByTestId('interests-editor');
    expect(within(editor).getByTestId('interest-add')).toBeDisabled();
    expect(within(editor).getByText(/You have 20 interests/)).toBeInTheDocument();
  });
});
