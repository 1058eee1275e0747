import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import { authChangePassword } from '../../../shared/api/generated/sdk.gen';
import { paths } from '../../../shared/routing/paths';
import { validatePassword, validateRepeatPassword, type ValidationKey } from '../../../shared/validation/account';
import { InvalidResetLink } from './InvalidResetLink';

interface NewPasswordFormProps {
  token: string;
  email: string;
}

/** Step two of the reset: the link from the mail opens this form (spec §5 password rules, repeated). */
export function NewPasswordForm({ token, email }: NewPasswordFormProps) {
  const { t } = useTranslation();
  const message = (key: ValidationKey | null) => key && t(key);
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', repeat_password: '' },
    validate: {
      password: (value) => message(validatePassword(value)),
      repeat_password: (value, values) => message(validateRepeatPassword(value, values.password)),
    },
  });
  const mutation = useMutation({
    mutationFn: async (values: typeof form.values) =>
      (await authChangePassword({ body: { token, ...values }, throwOnError: true })).data,
    onError: (error) => {
      const { password, repeat_password: repeat } = fieldErrors(error);
      if (password) form.setFieldError('password', password);
      if (repeat) form.setFieldError('repeat_password', repeat);
    },
  });

  if (mutation.isSuccess) {
    return (
      <Alert color="teal" variant="light" radius="lg" icon={<IconCircleCheck size={20} />} title={t('resetPassword.doneTitle')} data-testid="reset-done">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('resetPassword.doneText')}</Text>
          <Button component={Link} to={`${paths.registration}?email=${encodeURIComponent(email)}`} size="sm" radius="xl">
            {t('resetPassword.signInNow')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  // The link was spent or ran out while the form was open.
  if (mutation.error && 'token' in fieldErrors(mutation.error)) return <InvalidResetLink />;

  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate data-testid="new-password-form">
      <Stack gap="sm">
        {mutation.error && (
          <Alert color="red" variant="light" radius="md" role="alert">
            {errorMessage(mutation.error, t('auth.errors.generic'))}
          </Alert>
        )}
        {/* The account's email, for the browser's password manager and the user's peace of mind. */}
        <TextInput label={t('auth.email')} value={email} name="email" autoComplete="username" readOnly variant="filled" />
        <PasswordInput
          label={t('resetPassword.newPassword')}
          description={t('resetPassword.passwordRules')}
          name="password"
          autoComplete="new-password"
          data-autofocus
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t('auth.repeatPassword')}
          name="repeat_password"
          autoComplete="new-password"
          {...form.getInputProps('repeat_password')}
        />
        <Button type="submit" size="md" radius="xl" loading={mutation.isPending}>
          {t('resetPassword.save')}
        </Button>
      </Stack>
    </form>
  );
}
