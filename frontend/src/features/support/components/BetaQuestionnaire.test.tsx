import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { HelpDialog } from './HelpDialog';
import type { HelpView } from './helpViews';

const OWN = 'GET /v2/users/beta-tester';
const SEND = 'POST /v2/users/beta-tester';

/** Mantine radios, an autocomplete and a modal in jsdom take long on a loaded machine. */
const SLOW_TEST_MS = 60_000;

const ANSWERS = {
  creates_tours: 'planning',
  camera: null,
  industry: 'Tourism',
  tour_count: 'none',
  hosting_platforms: 'Kuula',
  use_case: 'Walks through old towns',
  country: 'Chile',
  heard_from: 'A podcast',
  feedback_frequency: 'Every week',
} as const;

function saved(answers: object) {
  return { id: 3, userid: 7, email: 'ann@example.com', username: 'Ann Lee', platform_username: 'ann.lee', answers, created_at: '2025-05-03T10:00:00Z' };
}

function renderAt(view: HelpView, onNavigate = vi.fn(), onClose = vi.fn()) {
  renderWithApp(<HelpDialog view={view} onNavigate={onNavigate} onClose={onClose} />);
  return { onNavigate, onClose };
}

function signIn() {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '7' }));
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('the beta-tester questionnaire', () => {
  afterEach(() => localStorage.clear());

  it('is an entry of the help tool, and sends a guest to sign in first', async () => {
    const { onNavigate, onClose } = renderAt('menu');
    fireEvent.click(await screen.findByRole('button', { name: /Become a beta tester/ }));
    expect(onNavigate).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalled();
  });

  it('asks every question but the camera, sends the answers and thanks the user', async () => {
    signIn();
    const api = stubApi({ [OWN]: { body: { data: null } }, [SEND]: (call) => ({ body: { message: 'Thank you for your answers', data: saved(call.body as object) } }) });
    const { onClose } = renderAt('beta');
    fireEvent.click(await screen.findByTestId('beta-send'));

    expect(await screen.findAllByText('Please answer this question')).toHaveLength(8);
    expect(api.callsTo(SEND)).toHaveLength(0);
    // The first unanswered question has the focus, so a phone scrolls to it.
    expect(document.activeElement).toBe(within(screen.getByTestId('beta-creates_tours')).getByLabelText('Yes'));
    expect(screen.getByTestId('beta-camera')).not.toBeRequired();
    expect(screen.getByTestId('beta-industry')).toBeRequired();

    fireEvent.click(screen.getByLabelText('Not yet, but I plan to'));
    fireEvent.click(screen.getByLabelText('None yet'));
    type('beta-industry', ' Tourism ');
    type('beta-hosting_platforms', 'Kuula');
    type('beta-use_case', 'Walks through old towns');
    type('beta-country', 'Chile');
    type('beta-heard_from', 'A podcast');
    type('beta-feedback_frequency', 'Every week');
    await waitFor(() => expect(screen.queryAllByText('Please answer this question')).toHaveLength(0));
    fireEvent.click(screen.getByTestId('beta-send'));

    expect(await screen.findByTestId('beta-thanks')).toHaveTextContent('Thank you!');
    expect(api.callsTo(SEND)[0]?.body).toEqual(ANSWERS);

    // Changing them starts from what was just sent.
    fireEvent.click(screen.getByTestId('beta-change'));
    expect(await screen.findByTestId('beta-industry')).toHaveValue('Tourism');
    expect(screen.getByTestId('beta-send')).toHaveTextContent('Update answers');
    expect(api.callsTo(OWN)).toHaveLength(1);
    fireEvent.click(screen.getByTestId('beta-send'));
    fireEvent.click(await screen.findByTestId('beta-close'));
    expect(onClose).toHaveBeenCalled();
    expect(api.callsTo(SEND)).toHaveLength(2);
  }, SLOW_TEST_MS);

  it('is prefilled with the answers given before', async () => {
    signIn();
    stubApi({ [OWN]: { body: { data: saved({ ...ANSWERS, camera: 'Ricoh Theta Z1' }) } } });
    renderAt('beta');
    expect(await screen.findByTestId('beta-answered')).toHaveTextContent('You answered on May 3, 2025');
    expect(screen.getByTestId('beta-camera')).toHaveValue('Ricoh Theta Z1');
    expect(screen.getByTestId('beta-use_case')).toHaveValue('Walks through old towns');
    expect(screen.getByLabelText('Not yet, but I plan to')).toBeChecked();
    expect(screen.getByLabelText('None yet')).toBeChecked();
  }, SLOW_TEST_MS);

  it('shows the server’s refusal on its question', async () => {
    signIn();
    stubApi({
      [OWN]: { body: { data: saved(ANSWERS) } },
      [SEND]: { status: 400, body: { message: 'Please answer every required question', fields: { heard_from: 'Please answer this question' } } },
    });
    renderAt('beta');
    fireEvent.click(await screen.findByTestId('beta-send'));
    expect(await screen.findByText('Please answer this question')).toBeInTheDocument();
    expect(screen.getByTestId('beta-heard_from')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('beta-heard_from')).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByTestId('beta-thanks')).not.toBeInTheDocument();
  }, SLOW_TEST_MS);

  it('says when the answers could not be sent for another reason', async () => {
    signIn();
    stubApi({ [OWN]: { body: { data: saved(ANSWERS) } }, [SEND]: { status: 429, body: { message: 'Too many requests, wait a minute' } } });
    renderAt('beta');
    fireEvent.click(await screen.findByTestId('beta-send'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests, wait a minute');
  }, SLOW_TEST_MS);

  it('says when the earlier answers could not be loaded, and loads them again', async () => {
    signIn();
    let failing = true;
    stubApi({ [OWN]: () => (failing ? { status: 500, body: {} } : { body: { data: null } }) });
    renderAt('beta');
    expect(await screen.findByTestId('beta-load-failed')).toHaveTextContent('Your earlier answers could not be loaded.');
    expect(screen.queryByTestId('beta-form')).not.toBeInTheDocument();
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('beta-form')).toBeInTheDocument();
  }, SLOW_TEST_MS);
});
