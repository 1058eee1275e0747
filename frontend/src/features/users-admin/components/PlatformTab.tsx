import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Group, Modal, Paper, Skeleton, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import type { PlatformConfigOut, PlatformConfigUpdate } from '../../../shared/api/generated/types.gen';
import { usePlatformConfig } from '../../../shared/platform/platformConfig';
import { useUpdatePlatformConfig } from '../api/platformAdminApi';
import { ListError } from './ListStates';

/** The server's bound of gui_version (app/platform/service.py MAX_VERSION_LENGTH). */
export const GUI_VERSION_MAX = 32;

/** Platform state (GET / PUT /v2/config/): restrict_access, images_approval and gui_version. */
export function PlatformTab() {
  const { t } = useTranslation();
  const config = usePlatformConfig();
  if (config.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label={t('page.loading')} data-testid="platform-loading">
        <Skeleton height={72} radius="md" />
        <Skeleton height={72} radius="md" />
        <Skeleton height={96} radius="md" />
      </Stack>
    );
  }
  if (config.isError) return <ListError error={config.error} onRetry={() => void config.refetch()} testId="platform-error" />;
  return <PlatformForm config={config.data} />;
}

function PlatformForm({ config }: { config: PlatformConfigOut }) {
  const { t } = useTranslation();
  const update = useUpdatePlatformConfig();
  const [confirmRestrict, setConfirmRestrict] = useState(false);
  const [version, setVersion] = useState(config.gui_version);
  const [versionError, setVersionError] = useState<string | null>(null);
  const [sending, setSending] = useState<keyof PlatformConfigUpdate | null>(null);

  const save = (body: PlatformConfigUpdate, what: keyof PlatformConfigUpdate) => {
    setSending(what);
    update.mutate(body, {
      onSuccess: () => notifications.show({ color: 'teal', message: t('usersAdmin.platform.saved') }),
      onError: (error) => {
        const fields = fieldErrors(error);
        if (fields.gui_version) setVersionError(fields.gui_version);
        else notifications.show({ color: 'red', title: t('usersAdmin.platform.failed'), message: errorMessage(error, t('page.errorText')) });
      },
      onSettled: () => setSending(null),
    });
  };
  const announce = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = version.trim();
    if (trimmed.length === 0 || trimmed.length > GUI_VERSION_MAX) {
      setVersionError(t('usersAdmin.platform.guiVersionRequired'));
      return;
    }
    setVersionError(null);
    save({ gui_version: trimmed }, 'gui_version');
  };

  return (
    <Stack gap="md" maw={760}>
      <Text size="sm" c="dimmed">
        {t('usersAdmin.platform.intro')}
      </Text>
      <Paper withBorder radius="md" p="md">
        <Switch
          size="md"
          label={t('usersAdmin.platform.restrictAccess')}
          description={t('usersAdmin.platform.restrictAccessHint')}
          checked={config.restrict_access}
          aria-busy={sending === 'restrict_access'}
          onChange={(event) => {
            if (update.isPending) return;
            if (event.currentTarget.checked) setConfirmRestrict(true);
            else save({ restrict_access: false }, 'restrict_access');
          }}
          data-testid="platform-restrict-access"
        />
      </Paper>
      <Paper withBorder radius="md" p="md">
        <Switch
          size="md"
          label={t('usersAdmin.platform.imagesApproval')}
          description={t('usersAdmin.platform.imagesApprovalHint')}
          checked={config.images_approval}
          aria-busy={sending === 'images_approval'}
          onChange={(event) => {
            if (update.isPending) return;
            save({ images_approval: event.currentTarget.checked }, 'images_approval');
          }}
          data-testid="platform-images-approval"
        />
      </Paper>
      <Paper withBorder radius="md" p="md" component="form" onSubmit={announce} noValidate>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('usersAdmin.platform.guiVersion')}
            description={t('usersAdmin.platform.guiVersionHint')}
            value={version}
            onChange={(event) => setVersion(event.currentTarget.value)}
            error={versionError}
            maxLength={64}
            style={{ flex: '1 1 240px' }}
            data-testid="platform-gui-version"
          />
          <Button type="submit" variant="light" loading={sending === 'gui_version'} disabled={version.trim() === config.gui_version} data-testid="platform-gui-version-save">
            {t('usersAdmin.platform.saveVersion')}
          </Button>
        </Group>
      </Paper>
      <Modal opened={confirmRestrict} onClose={() => setConfirmRestrict(false)} title={t('usersAdmin.platform.restrictTitle')} centered radius="lg" attributes={{ content: { 'data-testid': 'restrict-dialog' } }}>
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
            {t('usersAdmin.platform.restrictText')}
          </Alert>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmRestrict(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="orange"
              onClick={() => {
                setConfirmRestrict(false);
                save({ restrict_access: true }, 'restrict_access');
              }}
              data-testid="restrict-confirm"
            >
              {t('usersAdmin.platform.restrictConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
