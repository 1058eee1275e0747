/** react-query keys of sign-in, sign-up and password reset. */
export const authQueryKeys = {
  /** Whether a password-reset link is still good (checked before the form shows). */
  resetToken: (token: string) => ['auth', 'reset-token', token] as const,
};
