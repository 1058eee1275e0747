import { fireEvent, screen, waitFor } from '@testing-library/react';

import { registerAppAction } from '../../../shared/actions/appActions';
import { closeCookiePreferences, useCookiePreferencesOpen } from '../../../shared/consent/cookieConsent';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { HelpDialog } from './HelpDialog';
import type { HelpView } from './helpViews';

const CONFIG = { body: { known_bugs_url: 'https://status.example/known-bugs', tutorial_videos: [{ title: 'Your first tour', url: 'https://videos.example/first' }] } };
const SAVED_REPORT = { body: { message: 'Sent', data: { id: 1 } } };

function signIn() {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '7' }));
}

function PreferencesProbe() {
  return useCookiePreferencesOpen() ? <p>preferences open</p> : null;
}

afterEach(closeCookiePreferences);

function renderAt(view: HelpView, onNavigate = vi.fn(), onClose = vi.fn()) {
  renderWithApp(
    <>
      <HelpDialog view={view} onNavigate={onNavigate} onClose={onClose} />
      <PreferencesProbe />
    </>,
  );
  return { onNavigate, onClose };
}

describe('the help tool', () => {
  it('lists its entries and opens each one', async () => {
    signIn();
    const { onNavigate, onClose } = renderAt('menu');
    for (const name of ['Contact support', 'Cookie preferences', 'Tutorial videos', 'Request a feature', 'Report a bug']) {
      expect(await screen.findByRole('button', { name: new RegExp(name) })).toBeInTheDocument();
    }
    fireEvent.click(screen.getByTestId('help-bugReport'));
    expect(onNavigate).toHaveBeenLastCalledWith('bugReport');
    fireEvent.click(screen.getByTestId('help-cookies'));
    expect(onClose).toHaveBeenCalled();
    expect(await screen.findByText('preferences open')).toBeInTheDocument();
  });

  it('sends a guest to sign in before a form', async () => {
    const { onNavigate, onClose } = renderAt('menu');
    fireEvent.click(await screen.findByTestId('help-support'));
    expect(onNavigate).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalled();
  });

  it('lists the tutorial videos of the server’s settings', async () => {
    stubApi({ 'GET /v2/support/help-config': CONFIG });
    renderAt('videos');
    const link = await screen.findByRole('link', { name: 'Your first tour' });
    expect(link).toHaveAttribute('href', 'https://videos.example/first');
  });
});

describe('the bug report', () => {
  it('uploads a screenshot and sends it with the report', async () => {
    signIn();
    const api = stubApi({
      'GET /v2/support/help-config': CONFIG,
      'POST /v2/users/bug-image': { body: { path: '/uploads/bug-images/abc.png', content_type: 'image/png', message: 'Uploaded' } },
      'POST /v2/support/bug-report': SAVED_REPORT,
    });
    const { onClose } = renderAt('bugReport');
    expect(await screen.findByTestId('known-bugs-link')).toHaveAttribute('href', 'https://status.example/known-bugs');

    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [new File(['png'], 'shot.png', { type: 'image/png' })] } });
    expect(await screen.findByRole('img', { name: 'Screenshot 1' })).toHaveAttribute('src', '/uploads/bug-images/abc.png');

    fireEvent.click(screen.getByTestId('bug-send'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    fireEvent.change(screen.getByTestId('bug-title'), { target: { value: 'Grey map' } });
    fireEvent.change(screen.getByTestId('bug-description'), { target: { value: 'The map stays grey after zooming.' } });
    fireEvent.click(screen.getByTestId('bug-send'));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.callsTo('POST /v2/support/bug-report')[0]?.body).toMatchObject({
      title: 'Grey map',
      description: 'The map stays grey after zooming.',
      images: ['/uploads/bug-images/abc.png'],
    });
  });

  it('says why a screenshot was refused', async () => {
    signIn();
    stubApi({
      'GET /v2/support/help-config': CONFIG,
      'POST /v2/users/bug-image': { status: 400, body: { message: 'Upload a JPG, PNG or WEBP image' } },
    });
    renderAt('bugReport');
    const input = await waitFor(() => {
      const found = document.querySelector<HTMLInputElement>('input[type="file"]');
      if (!found) throw new Error('no file input');
      return found;
    });
    fireEvent.change(input, { target: { files: [new File(['gif'], 'shot.gif', { type: 'image/gif' })] } });
    expect(await screen.findByText('Upload a JPG, PNG or WEBP image')).toHaveAttribute('role', 'alert');
  });
});

describe('contact support', () => {
  it('asks for enough letters, then sends', async () => {
    signIn();
    const api = stubApi({ 'POST /v2/support/contact-support': { body: { message: 'Sent', id: 4 } } });
    const { onClose } = renderAt('support');
    fireEvent.change(await screen.findByLabelText(/Your name/), { target: { value: 'Ann' } });
    fireEvent.change(screen.getByLabelText(/Your e-mail/), { target: { value: 'ann@example.com' } });
    fireEvent.change(screen.getByTestId('contact-message'), { target: { value: 'Too short' } });
    fireEvent.click(screen.getByTestId('contact-send'));
    expect(await screen.findAllByText('At least 20 letters')).not.toHaveLength(0);
    expect(api.callsTo('POST /v2/support/contact-support')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('contact-message'), { target: { value: 'Please help me with my billing question today.' } });
    fireEvent.click(screen.getByTestId('contact-send'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.callsTo('POST /v2/support/contact-support')[0]?.body).toMatchObject({ name: 'Ann', email: 'ann@example.com', subject: null });
  });
});

describe('the known-bugs link', () => {
  it('opens the Updates screen when no known-bugs page is configured', async () => {
    signIn();
    stubApi({ 'GET /v2/support/help-config': { body: { known_bugs_url: '', tutorial_videos: [] } } });
    const opened = vi.fn();
    const stop = registerAppAction('updates', opened);
    renderAt('bugReport');
    fireEvent.click(await screen.findByRole('button', { name: 'See what is already fixed or coming soon' }));
    expect(opened).toHaveBeenCalledTimes(1);
    stop();
  });
});
