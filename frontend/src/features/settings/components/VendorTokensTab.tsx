import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Anchor, Badge, Button, Card, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconCube, IconKey, IconPlugConnected, IconServer2 } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { CredentialOut } from '../../../shared/api/generated/types.gen';
import { vendorsQueryOptions } from '../../../shared/dictionaries/queries';
import { openHostRequestDialog } from '../../../shared/vendors/hostRequestDialog';
import { vendorQueryKeys } from '../../../shared/vendors/vendorQueryKeys';
import { checkModel, credentialsQueryOptions, deleteCredentials, saveCredentials, type ModelCheck } from '../api/vendorCredentials';
import { looksLikeModelKey, TOKEN_MAX_LENGTH, type TokenSaveOutcome, type TokenValues, validateToken } from '../model/vendorTokens';
import { TabLoading } from './SettingsStates';

/** Only one vendor type is used (spec §7 Vendors credentials): Matterport. */
const CAPTURE_VENDOR = 'Matterport';

/**
 * Settings → 3D-capture vendor API tokens (spec §2, §6 "vendor API credentials"): the connected
 * Matterport account with its token masked, a form that connects one (Matterport checks the pair
 * before it is kept), disconnecting after a confirmation, and a check of one model with the saved
 * token (matterport-type). Creators only; the custom host request is one link away.
 */
export function VendorTokensTab() {
  const { t } = useTranslation();
  const credentials = useQuery({ ...credentialsQueryOptions(), retry: false });
  const [replacing, setReplacing] = useState(false);

  if (credentials.isPending) return <TabLoading onRetry={() => undefined} />;
  if (credentials.isError) {
    if (isForbidden(credentials.error)) {
      return (
        <Alert color="gray" variant="light" radius="md" data-testid="vendor-tokens-creators-only">
          {t('settings.vendors.creatorsOnly')}
        </Alert>
      );
    }
    return <TabLoading error={credentials.error} onRetry={() => void credentials.refetch()} />;
  }
  const connected = credentials.data[0] ?? null;

  return (
    <Stack gap="md" data-testid="vendor-tokens">
      <Text size="sm" c="dimmed">
        {t('settings.vendors.intro')}
      </Text>
      {connected && !replacing ? (
        <>
          <ConnectedAccount credential={connected} onReplace={() => setReplacing(true)} />
          <ModelCheckForm />
        </>
      ) : (
        <ConnectForm replacing={connected !== null} onDone={() => setReplacing(false)} />
      )}
      <Group gap={6} wrap="nowrap" pt="xs" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
        <IconServer2 size={16} aria-hidden="true" />
        <Text size="sm">
          {t('settings.vendors.hostNotListed')}{' '}
          <Anchor component="button" type="button" size="sm" onClick={openHostRequestDialog} data-testid="vendor-tokens-request-host">
            {t('settings.vendors.requestHost')}
          </Anchor>
        </Text>
      </Group>
    </Stack>
  );
}

function formatDate(iso: string, language: string): string {
  return new Date(iso).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}

function isForbidden(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'message' in error && String(error.message) === 'Creators only';
}

function ConnectedAccount({ credential, onReplace }: { credential: CredentialOut; onReplace: () => void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const disconnect = useMutation({
    mutationFn: () => deleteCredentials(credential.vendor.id),
    onSuccess: () => {
      queryClient.setQueryData(vendorQueryKeys.credentials, []);
      notifications.show({ color: 'teal', message: t('settings.vendors.disconnected', { vendor: credential.vendor.name }) });
    },
    onError: () => notifications.show({ color: 'red', message: t('settings.vendors.disconnectFailed') }),
  });
  const confirm = () =>
    modals.openConfirmModal({
      title: t('settings.vendors.disconnectTitle', { vendor: credential.vendor.name }),
      children: <Text size="sm">{t('settings.vendors.disconnectQuestion', { vendor: credential.vendor.name })}</Text>,
      centered: true,
      radius: 'lg',
      zIndex: 400,
      labels: { confirm: t('settings.vendors.disconnectConfirm'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-disconnect-vendor' },
      onConfirm: () => disconnect.mutate(),
    });
  return (
    <Card withBorder radius="md" padding="md" data-testid="vendor-connected">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <IconPlugConnected size={20} aria-hidden="true" color="var(--mantine-color-teal-7)" />
            <Text fw={600}>{credential.vendor.name}</Text>
          </Group>
          <Badge color="teal" variant="light">
            {t('settings.vendors.connected')}
          </Badge>
        </Group>
        <dl style={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '4px 12px', margin: 0, fontSize: 'var(--mantine-font-size-sm)' }}>
          <dt>{t('settings.vendors.key')}</dt>
          <dd style={{ margin: 0, fontFamily: 'var(--mantine-font-family-monospace)' }} data-testid="vendor-key-masked">
            {credential.key}
          </dd>
          <dt>{t('settings.vendors.secret')}</dt>
          <dd style={{ margin: 0, fontFamily: 'var(--mantine-font-family-monospace)' }}>{credential.secret}</dd>
          <dt>{t('settings.vendors.checkedAt')}</dt>
          <dd style={{ margin: 0 }}>{formatDate(credential.checked_at ?? credential.created_at, i18n.language)}</dd>
        </dl>
        <Group justify="flex-end" gap="xs" mt="xs">
          <Button variant="default" radius="xl" size="sm" onClick={onReplace}>
            {t('settings.vendors.replace')}
          </Button>
          <Button color="red" variant="light" radius="xl" size="sm" loading={disconnect.isPending} onClick={confirm} data-testid="vendor-disconnect">
            {t('settings.vendors.disconnect')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function ConnectForm({ replacing, onDone }: { replacing: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const vendors = useQuery(vendorsQueryOptions());
  const captureVendor = vendors.data?.find((vendor) => vendor.vendor_name === CAPTURE_VENDOR) ?? null;
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<TokenValues>({
    mode: 'controlled',
    initialValues: { key: '', secret: '' },
    validate: {
      key: (value) => {
        const key = validateToken(value, 'key');
        return key && t(key, { max: TOKEN_MAX_LENGTH });
      },
      secret: (value) => {
        const key = validateToken(value, 'secret');
        return key && t(key, { max: TOKEN_MAX_LENGTH });
      },
    },
  });
  const save = useMutation({
    mutationFn: (values: TokenValues) => saveCredentials(captureVendor?.vendor_id ?? null, values),
    onMutate: () => setProblem(null),
    onSuccess: (outcome: TokenSaveOutcome) => {
      switch (outcome.kind) {
        case 'saved':
          queryClient.setQueryData(vendorQueryKeys.credentials, [outcome.credential]);
          notifications.show({ color: 'teal', message: t(replacing ? 'settings.vendors.replaced' : 'settings.vendors.connectedNow', { vendor: outcome.credential.vendor.name }) });
          form.reset();
          onDone();
          return;
        case 'refused':
          form.setErrors(outcome.fields);
          setProblem(outcome.message ?? t('settings.vendors.refused'));
          return;
        case 'later':
          setProblem(outcome.message ?? t('settings.vendors.later'));
          return;
        case 'failed':
          setProblem(outcome.message ?? t('settings.vendors.failed'));
      }
    },
    onError: () => setProblem(t('settings.vendors.failed')),
  });

  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate data-testid="vendor-connect-form">
      <Stack gap="sm">
        {problem && (
          <Alert color="red" variant="light" radius="md" role="alert" icon={<IconAlertTriangle size={18} />} data-testid="vendor-connect-error">
            {problem}
          </Alert>
        )}
        <Select
          label={t('settings.vendors.vendor')}
          data={[CAPTURE_VENDOR]}
          value={CAPTURE_VENDOR}
          allowDeselect={false}
          readOnly
          description={t('settings.vendors.vendorHint')}
        />
        <TextInput
          label={t('settings.vendors.key')}
          description={t('settings.vendors.keyHint')}
          autoComplete="off"
          spellCheck={false}
          withAsterisk
          maxLength={TOKEN_MAX_LENGTH}
          leftSection={<IconKey size={16} />}
          data-testid="vendor-key"
          {...form.getInputProps('key')}
        />
        <PasswordInput
          label={t('settings.vendors.secret')}
          autoComplete="new-password"
          withAsterisk
          maxLength={TOKEN_MAX_LENGTH}
          data-testid="vendor-secret"
          {...form.getInputProps('secret')}
        />
        <Group justify="flex-end" gap="xs" mt="xs">
          {replacing && (
            <Button variant="default" radius="xl" onClick={onDone} disabled={save.isPending}>
              {t('common.cancel')}
            </Button>
          )}
          <Button type="submit" radius="xl" loading={save.isPending} data-testid="vendor-connect">
            {t(replacing ? 'settings.vendors.saveReplacement' : 'settings.vendors.connect')}
          </Button>
        </Group>
        {save.isPending && (
          <Text size="xs" c="dimmed" ta="right" aria-live="polite">
            {t('settings.vendors.checking')}
          </Text>
        )}
      </Stack>
    </form>
  );
}

/** Check one model of the connected account (matterport-type): its name, visibility, state and media type. */
function ModelCheckForm() {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const check = useMutation<ModelCheck, Error, string>({ mutationFn: checkModel });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!looksLikeModelKey(value)) {
      setError(t('settings.vendors.errors.modelKey'));
      return;
    }
    setError(null);
    check.mutate(value);
  };
  const result = check.data;
  return (
    <form onSubmit={submit} noValidate data-testid="vendor-model-check">
      <Stack gap="xs">
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('settings.vendors.modelLabel')}
            description={t('settings.vendors.modelHint')}
            placeholder="SxQL3iGyoDo"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={error}
            leftSection={<IconCube size={16} />}
            maxLength={2048}
          />
          <Button type="submit" variant="light" radius="xl" loading={check.isPending} mb={error ? 22 : 0}>
            {t('settings.vendors.modelCheck')}
          </Button>
        </Group>
        {check.isError && (
          <Alert color="red" variant="light" radius="md" role="alert">
            {t('settings.vendors.failed')}
          </Alert>
        )}
        {result?.kind === 'refused' && (
          <Alert color="red" variant="light" radius="md" role="alert" data-testid="vendor-model-refused">
            {result.message ?? t('settings.vendors.failed')}
          </Alert>
        )}
        {result?.kind === 'found' && (
          <Alert color="teal" variant="light" radius="md" icon={<IconCheck size={18} />} title={result.model.name} data-testid="vendor-model-found">
            <Text size="sm">
              {[
                result.model.media_type,
                result.model.visibility && t('settings.vendors.modelVisibility', { value: result.model.visibility }),
                result.model.state && t('settings.vendors.modelState', { value: result.model.state }),
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          </Alert>
        )}
      </Stack>
    </form>
  );
}
