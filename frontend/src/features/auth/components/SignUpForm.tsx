import { Alert, Button, Checkbox, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { errorMessage } from '../../../shared/api/apiError';
import { usersUsersInfoCheck } from '../../../shared/api/generated/sdk.gen';
import { paths } from '../../../shared/routing/paths';
import {
  shouldCheckUsername,
  validateEmail,
  validateName,
  validatePassword,
  validatePhone,
  validateRepeatPassword,
  validateUsername,
  type ValidationKey,
} from '../../../shared/validation/account';
import { signUp } from '../model/authActions';

const INITIAL = {
  first_name: '',
  last_name: '',
  email: '',
  platform_username: '',
  phone_number: '',
  password: '',
  repeat_password: '',
  consent_emails: false,
};
type SignUpValues = typeof INITIAL;

/** Whether the server already knows this username or email (spec §5: "not already taken"). */
async function isTaken(query: { platform_username?: string; email?: string }): Promise<boolean> {
  try {
    const { data } = await usersUsersInfoCheck({ query, throwOnError: true });
    const available = query.email ? data.email_available : data.platform_username_available;
    return available === false;
  } catch {
    // The server checks again on submit; an unreachable check must not block the form.
    return false;
  }
}

export function SignUpForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const message = (key: ValidationKey | null) => key && t(key);
  const form = useForm({
    mode: 'controlled',
    initialValues: INITIAL,
    validate: {
      first_name: (value) => message(validateName(value)),
      last_name: (value) => message(validateName(value)),
      email: (value) => message(validateEmail(value)),
      platform_username: (value) => message(validateUsername(value)),
      phone_number: (value) => message(validatePhone(value)),
      password: (value) => message(validatePassword(value)),
      repeat_password: (value, values) => message(validateRepeatPassword(value, values.password)),
    },
  });

  const mutation = useMutation({
    mutationFn: async (values: SignUpValues) => {
      const [usernameTaken, emailTaken] = await Promise.all([
        shouldCheckUsername(values.platform_username, null) ? isTaken({ platform_username: values.platform_username }) : false,
        isTaken({ email: values.email.trim() }),
      ]);
      if (usernameTaken) form.setFieldError('platform_username', t('auth.errors.usernameTaken'));
      if (emailTaken) form.setFieldError('email', t('auth.errors.emailTaken'));
      if (usernameTaken || emailTaken) return null;
      return signUp({
        ...values,
        email: values.email.trim(),
        phone_number: values.phone_number || null,
        username: `${values.first_name} ${values.last_name}`.trim(),
        auth_system: 'email',
      });
    },
    onSuccess: (answer) => {
      if (answer === null) return;
      notifications.show({ message: t('auth.signedUp'), color: 'teal' });
      void navigate(paths.home);
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate data-testid="sign-up-form">
      <Stack gap="sm">
        {mutation.error && (
          <Alert color="red" variant="light" radius="md" role="alert">
            {errorMessage(mutation.error, t('auth.errors.generic'))}
          </Alert>
        )}
        <Group grow align="flex-start" wrap="wrap">
          <TextInput label={t('auth.firstName')} name="first_name" autoComplete="given-name" miw={140} {...form.getInputProps('first_name')} />
          <TextInput label={t('auth.lastName')} name="last_name" autoComplete="family-name" miw={140} {...form.getInputProps('last_name')} />
        </Group>
        <TextInput label={t('auth.email')} type="email" name="email" autoComplete="email" {...form.getInputProps('email')} />
        <TextInput
          label={t('auth.username')}
          description={t('auth.usernameHint')}
          name="platform_username"
          autoComplete="username"
          {...form.getInputProps('platform_username')}
        />
        <TextInput label={t('auth.phone')} type="tel" name="phone_number" autoComplete="tel" {...form.getInputProps('phone_number')} />
        <PasswordInput label={t('auth.password')} name="password" autoComplete="new-password" {...form.getInputProps('password')} />
        <PasswordInput
          label={t('auth.repeatPassword')}
          name="repeat_password"
          autoComplete="new-password"
          {...form.getInputProps('repeat_password')}
        />
        <Checkbox label={t('auth.consentEmails')} {...form.getInputProps('consent_emails', { type: 'checkbox' })} />
        <Button type="submit" size="md" radius="xl" loading={mutation.isPending}>
          {t('auth.createAccount')}
        </Button>
      </Stack>
    </form>
  );
}
