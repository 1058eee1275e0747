import { fireEvent, screen, waitFor } from '@testing-library/react';

import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { ResetPasswordPage } from './ResetPasswordPage';

const INVALID = { status: 400, body: { message: 'This reset link is invalid or has expired', fields: { token: 'This reset link is invalid or has expired' } } };

describe('the reset-password page', () => {
  it('asks for the email and then says to check the mail', async () => {
    const api = stubApi({ 'POST /v2/users/request_reset_password': { body: { message: 'sent' } } });
    renderWithApp(<ResetPasswordPage />, { path: '/resetpassword' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Invalid email')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' ada@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Check your mail')).toBeInTheDocument();
    expect(screen.getByTestId('reset-sent')).toHaveTextContent('ada@example.com');
    expect(api.callsTo('POST /v2/users/request_reset_password')[0]?.body).toEqual({ email: 'ada@example.com' });
  });

  it('opens the new-password form from the mail link and sets the password', async () => {
    const api = stubApi({
      'GET /v2/users/reset-pass-token': { body: { valid: true, email: 'ada@example.com' } },
      'POST /v2/users/change-password': { body: { message: 'Your password has been changed. Please sign in.' } },
    });
    renderWithApp(<ResetPasswordPage />, { path: '/resetpassword?token=abc' });
    const password = await screen.findByLabelText('New password');
    expect(screen.getByDisplayValue('ada@example.com')).toBeInTheDocument();
    fireEvent.change(password, { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText('Password must be 6 to 16 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords must match')).toBeInTheDocument();
    fireEvent.change(password, { target: { value: 'NewSecret1!' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'NewSecret1!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(api.callsTo('GET /v2/users/reset-pass-token')[0]?.search.get('token')).toBe('abc');
    expect(api.callsTo('POST /v2/users/change-password')[0]?.body).toEqual({ token: 'abc', password: 'NewSecret1!', repeat_password: 'NewSecret1!' });
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/registration?email=ada%40example.com');
  });

  it('tells that a used or expired link no longer works', async () => {
    stubApi({ 'GET /v2/users/reset-pass-token': INVALID });
    renderWithApp(<ResetPasswordPage />, { path: '/resetpassword?token=spent' });
    expect(await screen.findByText('This link no longer works')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/resetpassword');
  });

  it('tells the same when the link is spent while the form is open', async () => {
    stubApi({
      'GET /v2/users/reset-pass-token': { body: { valid: true, email: 'ada@example.com' } },
      'POST /v2/users/change-password': INVALID,
    });
    renderWithApp(<ResetPasswordPage />, { path: '/resetpassword?token=abc' });
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'NewSecret1!' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'NewSecret1!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByTestId('reset-invalid')).toBeInTheDocument();
  });

  it('offers a retry when the link cannot be checked', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    renderWithApp(<ResetPasswordPage />, { path: '/resetpassword?token=abc' });
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('reset-invalid')).not.toBeInTheDocument());
  });
});
