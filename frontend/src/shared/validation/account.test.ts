import {
  shouldCheckUsername,
  validateEmail,
  validatePassword,
  validatePhone,
  validateRepeatPassword,
  validateUsername,
} from './account';

describe('account validation', () => {
  it('checks emails', () => {
    expect(validateEmail('')).toBe('auth.errors.required');
    expect(validateEmail('nope')).toBe('auth.errors.email');
    expect(validateEmail('a@b.io')).toBeNull();
  });

  it('applies the password rule: 6–16, digit, Latin letter, one of !@#$%^&*, nothing else', () => {
    expect(validatePassword('a1!')).toBe('auth.errors.passwordLength');
    expect(validatePassword('abcdefg1!abcdefgh')).toBe('auth.errors.passwordLength');
    expect(validatePassword('abcdef1')).toBe('auth.errors.passwordSymbols');
    expect(validatePassword('abc def1!')).toBe('auth.errors.passwordSymbols');
    expect(validatePassword('пароль1!a')).toBe('auth.errors.passwordSymbols');
    expect(validatePassword('Secret1!')).toBeNull();
  });

  it('needs matching passwords and digit-only phones', () => {
    expect(validateRepeatPassword('a', 'b')).toBe('auth.errors.passwordMatch');
    expect(validateRepeatPassword('a', 'a')).toBeNull();
    expect(validatePhone('+123')).toBe('auth.errors.phone');
    expect(validatePhone('123')).toBeNull();
  });

  it('checks usernames and when to ask the server about them', () => {
    expect(validateUsername('abcd')).toBe('auth.errors.usernameShort');
    expect(validateUsername('a'.repeat(26))).toBe('auth.errors.usernameLong');
    expect(validateUsername('bad name')).toBe('auth.errors.usernameSymbols');
    expect(validateUsername('shithead')).toBe('auth.errors.profanity');
    expect(validateUsername('good_name')).toBeNull();
    expect(shouldCheckUsername('abcd', null)).toBe(false);
    expect(shouldCheckUsername('abcde', 'abcde')).toBe(false);
    expect(shouldCheckUsername('abcde', 'other')).toBe(true);
  });
});
