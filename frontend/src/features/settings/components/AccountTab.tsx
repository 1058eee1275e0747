import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Checkbox, Group, Loader, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { CurrentUserOut } from '../../../shared/api/generated/types.gen';
import { storeCurrentUser } from '../../../shared/auth/currentUser';
import {
  validateEmail,
  validateName,
  validatePhone,
  validateUsername,
  type ValidationKey,
} from '../../../shared/validation/account';
import { accountValues, changedParams, emailEditable, saveAccount, type AccountValues } from '../model/accountSave';
import { useUsernameAvailability, type UsernameAvailability } from '../model/usernameAvailability';

type Problem = { kind: 'conflict'; message: string } | { kind: 'failed' } | null;

/** Settings → Account: names, platform username (checked live), email, phone, news by email. */
export function AccountTab({ user }: { user: CurrentUserOut }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const message = (key: ValidationKey | null) => key && t(key);
  const canEditEmail = emailEditable(user);
  const form = useForm<AccountValues>({
    mode: 'controlled',
    initialValues: accountValues(user),
    validate: {
      first_name: (value) => message(validateName(value)),
      last_name: (value) => message(validateName(value)),
      platform_username: (value) => message(validateUsername(value)),
      email: (value) => (canEditEmail ? message(validateEmail(value)) : null),
      phone: (value) => message(validatePhone(value)),
    },
  });
  const availability = useUsernameAvailability(form.values.platform_username, user.platform_username);
  const [problem, setProblem] = useState<Problem>(null);

  const mutation = useMutation({
    mutationFn: (values: AccountValues) => saveAccount(user.userid, changedParams(user, values)),
    onMutate: () => setProblem(null),
    onSuccess: (result) => {
      if (result.kind === 'saved' || result.kind === 'pending') {
        storeCurrentUser(queryClient, result.user);
        form.setInitialValues(accountValues(result.user));
        form.reset();
        notifications.show(
          result.kind === 'saved'
            ? { color: 'teal', message: t('settings.account.saved') }
            : { color: 'yellow', title: t('settings.account.pendingTitle'), message: t('settings.account.pending') },
        );
        return;
      }
      if (result.kind === 'failed') form.setErrors(result.fields);
      setProblem(result.kind === 'conflict' ? result : { kind: 'failed' });
    },
    onError: () => setProblem({ kind: 'failed' }),
  });

  const usernameTaken = availability.status === 'taken' || availability.status === 'rejected';
  const submit = form.onSubmit((values) => {
    if (usernameTaken) return;
    mutation.mutate(values);
  });

  return (
    <form onSubmit={submit} noValidate data-testid="account-form">
      <Stack gap="sm">
        {problem && (
          <Alert color="red" variant="light" radius="md" role="alert" title={problem.kind === 'failed' ? t('settings.account.savingError') : undefined}>
            {problem.kind === 'conflict' ? problem.message : t('settings.account.savingErrorText')}
          </Alert>
        )}
        <Group grow align="flex-start" wrap="wrap">
          <TextInput label={t('auth.firstName')} name="first_name" autoComplete="given-name" miw={150} {...form.getInputProps('first_name')} />
          <TextInput label={t('auth.lastName')} name="last_name" autoComplete="family-name" miw={150} {...form.getInputProps('last_name')} />
        </Group>
        <TextInput
          label={t('auth.username')}
          description={t('auth.usernameHint')}
          name="platform_username"
          autoComplete="username"
          {...form.getInputProps('platform_username')}
          error={form.errors.platform_username ?? availabilityError(availability, t('auth.errors.usernameTaken'))}
          rightSection={<AvailabilityMark availability={availability} />}
          data-testid="settings-username"
        />
        {availability.status === 'available' && (
          <Group gap={4} c="teal.8" fz="xs" mt={-6} data-testid="username-available">
            <IconCheck size={14} aria-hidden="true" />
            {t('settings.account.usernameAvailable')}
          </Group>
        )}
        <TextInput
          label={t('auth.email')}
          description={canEditEmail ? undefined : t('settings.account.emailFromProvider', { provider: providerName(user) })}
          type="email"
          name="email"
          autoComplete="email"
          readOnly={!canEditEmail}
          variant={canEditEmail ? 'default' : 'filled'}
          {...form.getInputProps('email')}
        />
        <TextInput
          label={t('auth.phone')}
          description={t('settings.account.phoneHint')}
          type="tel"
          inputMode="numeric"
          name="phone"
          autoComplete="tel"
          {...form.getInputProps('phone')}
        />
        <Checkbox label={t('auth.consentEmails')} {...form.getInputProps('consent_emails', { type: 'checkbox' })} />
        <Group justify="flex-end" mt="xs">
          <Button variant="default" radius="xl" onClick={() => form.reset()} disabled={!form.isDirty() || mutation.isPending}>
            {t('settings.account.reset')}
          </Button>
          <Button type="submit" radius="xl" loading={mutation.isPending} disabled={!form.isDirty()} data-testid="account-save">
            {t('settings.account.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function availabilityError(availability: UsernameAvailability, takenText: string): string | undefined {
  if (availability.status === 'taken') return takenText;
  if (availability.status === 'rejected') return availability.message;
  return undefined;
}

function AvailabilityMark({ availability }: { availability: UsernameAvailability }) {
  const { t } = useTranslation();
  if (availability.status === 'checking') return <Loader size={16} aria-label={t('settings.account.usernameChecking')} />;
  if (availability.status === 'available') return <IconCheck size={18} color="var(--mantine-color-teal-7)" aria-hidden="true" />;
  return null;
}

function providerName(user: CurrentUserOut): string {
  return user.auth_system === 'google' ? 'Google' : 'Facebook';
}
