import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { errorMessage } from '../../../shared/api/apiError';
import { paths } from '../../../shared/routing/paths';
import { validateEmail, validateRequired } from '../../../shared/validation/account';
import { signIn } from '../model/authActions';

/** Email sign-in; the server's message (e.g. 'User Deleted', the drafted-account text) shows as is (spec §8). */
export function SignInForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // After a password reset the page opens with the account's email already typed.
  const [searchParams] = useSearchParams();
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: searchParams.get('email') ?? '', password: '' },
    validate: {
      email: (value) => {
        const key = validateEmail(value);
        return key && t(key);
      },
      password: (value) => {
        const key = validateRequired(value);
        return key && t(key);
      },
    },
  });
  const mutation = useMutation({
    mutationFn: (values: typeof form.values) =>
      signIn({ auth_system: 'email', email: values.email.trim(), password: values.password }),
    onSuccess: () => {
      notifications.show({ message: t('auth.signedIn'), color: 'teal' });
      void navigate(paths.home);
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate data-testid="sign-in-form">
      <Stack gap="sm">
        {mutation.error && (
          <Alert color="red" variant="light" radius="md" role="alert">
            {errorMessage(mutation.error, t('auth.errors.generic'))}
          </Alert>
        )}
        <TextInput label={t('auth.email')} type="email" autoComplete="email" name="email" {...form.getInputProps('email')} />
        <PasswordInput label={t('auth.password')} autoComplete="current-password" name="password" {...form.getInputProps('password')} />
        <Group justify="flex-end">
          <Anchor component={Link} to={paths.resetPassword} size="sm">
            {t('auth.forgotPassword')}
          </Anchor>
        </Group>
        <Button type="submit" size="md" radius="xl" loading={mutation.isPending}>
          {t('auth.signIn')}
        </Button>
      </Stack>
    </form>
  );
}
