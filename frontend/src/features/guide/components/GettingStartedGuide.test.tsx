import { fireEvent, screen, waitFor } from '@testing-library/react';

import { useCurrentUser } from '../../../shared/auth/currentUser';
import { saveCookieConsent } from '../../../shared/consent/cookieConsent';
import { closeSettingsDialog, useSettingsDialog } from '../../../shared/settings/settingsDialog';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi, type StubbedCall } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken, testUser } from '../../../testing/users';
import { GettingStartedGuide } from './GettingStartedGuide';

const STEPS = 'POST /v2/users/user-guide-steps';

function signedInWith(guideSteps: Record<string, unknown>) {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken());
  saveCookieConsent({ preferences: true });
  let stored = { ...guideSteps };
  return stubApi({
    'GET /v2/users/': () => ({ body: testUser({ guide_steps: stored }) }),
    [STEPS]: (call: StubbedCall) => {
      stored = { ...stored, ...(call.body as { guide_steps: Record<string, unknown> }).guide_steps };
      return { body: { guide_steps: stored } };
    },
  });
}

/** Shows when the current user has arrived, so a test can wait for the guide's decision. */
function UserProbe() {
  const user = useCurrentUser();
  return <span data-testid="user-probe">{user.data ? 'loaded' : 'loading'}</span>;
}

function SettingsProbe() {
  const settings = useSettingsDialog();
  return <span data-testid="settings-probe">{settings.opened ? settings.tab : 'closed'}</span>;
}

describe('the getting-started guide', () => {
  afterEach(() => closeSettingsDialog());

  it('walks the steps, records each one and completes on finish', async () => {
    const api = signedInWith({ completeGuide: false });
    renderWithApp(<GettingStartedGuide />);
    expect(await screen.findByText('Welcome to TourAtlas, Ada!')).toBeInTheDocument();
    expect(screen.getByTestId('guide-progress')).toHaveTextContent('Step 1 of 5');
    for (let step = 0; step < 4; step += 1) fireEvent.click(screen.getByTestId('guide-next'));
    expect(screen.getByText('Share your own tours')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('guide-finish'));
    await waitFor(() => expect(screen.queryByTestId('getting-started-guide')).not.toBeInTheDocument());
    await waitFor(() => expect(api.callsTo(STEPS)).toHaveLength(5));
    expect(api.callsTo(STEPS).map((call) => call.body)).toEqual([
      { guide_steps: { welcome: true } },
      { guide_steps: { discover: true } },
      { guide_steps: { save: true } },
      { guide_steps: { interests: true } },
      { guide_steps: { create: true, completeGuide: true } },
    ]);
  });

  it('resumes where the user left it and can be skipped', async () => {
    const api = signedInWith({ completeGuide: false, welcome: true, discover: true });
    renderWithApp(<GettingStartedGuide />);
    expect(await screen.findByText('Save and follow')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('guide-skip'));
    await waitFor(() => expect(api.callsTo(STEPS)[0]?.body).toEqual({ guide_steps: { skipped: true, completeGuide: true } }));
    expect(screen.queryByTestId('getting-started-guide')).not.toBeInTheDocument();
  });

  it('opens the settings on Interests from its interests step', async () => {
    signedInWith({ completeGuide: false, welcome: true, discover: true, save: true });
    renderWithApp(
      <>
        <GettingStartedGuide />
        <SettingsProbe />
      </>,
    );
    fireEvent.click(await screen.findByTestId('guide-interests'));
    expect(screen.getByTestId('settings-probe')).toHaveTextContent('interests');
  });

  it('is not shown again once complete', async () => {
    signedInWith({ completeGuide: true });
    renderWithApp(
      <>
        <GettingStartedGuide />
        <UserProbe />
      </>,
    );
    expect(await screen.findByText('loaded')).toBeInTheDocument();
    expect(screen.queryByTestId('getting-started-guide')).not.toBeInTheDocument();
  });

  it('waits for the cookie choice', async () => {
    signedInWith({ completeGuide: false });
    localStorage.removeItem(STORAGE_KEYS.cookieConsent);
    renderWithApp(
      <>
        <GettingStartedGuide />
        <UserProbe />
      </>,
    );
    expect(await screen.findByText('loaded')).toBeInTheDocument();
    expect(screen.queryByText('Welcome to TourAtlas, Ada!')).not.toBeInTheDocument();
  });
});
