import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Divider, Group, Modal, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import type { AdminUserSettingsOut, AdminUserSettingsUpdate } from '../../../shared/api/generated/types.gen';
import { type AdminUser, userSettingsQueryOptions, useSaveUserSettings } from '../api/usersAdminApi';
import { displayName } from './displayName';
import { ListError } from './ListStates';

type Flag = 'is_admin' | 'cm' | 'trusted' | 'potential_creator' | 'user_active' | 'editing_creator_pending' | 'profile_edit_pending' | 'tour_edit_pending';
type Flags = Record<Flag, boolean>;

const MAIN: readonly Flag[] = ['is_admin', 'cm', 'trusted', 'potential_creator', 'user_active'];
const PENDING: readonly Flag[] = ['editing_creator_pending', 'profile_edit_pending', 'tour_edit_pending'];
const CM_ROLE = 'CM';

function flagsOf(settings: AdminUserSettingsOut): Flags {
  return {
    is_admin: settings.is_admin,
    cm: settings.roles.includes(CM_ROLE),
    trusted: settings.trusted,
    potential_creator: settings.potential_creator,
    user_active: settings.user_active,
    editing_creator_pending: settings.editing_creator_pending,
    profile_edit_pending: settings.profile_edit_pending,
    tour_edit_pending: settings.tour_edit_pending,
  };
}

/** What POST admin-user-settings needs: only the flags that changed (roles as the whole new list). */
export function settingsChanges(settings: AdminUserSettingsOut, next: Flags): Omit<AdminUserSettingsUpdate, 'userid'> {
  const before = flagsOf(settings);
  const changes: Omit<AdminUserSettingsUpdate, 'userid'> = {};
  for (const flag of [...MAIN, ...PENDING]) {
    if (flag === 'cm' || before[flag] === next[flag]) continue;
    changes[flag] = next[flag];
  }
  if (before.cm !== next.cm) {
    const others = settings.roles.filter((role) => role !== CM_ROLE);
    changes.roles = next.cm ? [...others, CM_ROLE] : others;
  }
  return changes;
}

/** The account's roles and flags (GET / POST /v2/users/admin-user-settings). */
export function SettingsDialog({ user, self, onClose }: { user: AdminUser; self: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useQuery(userSettingsQueryOptions(user.userid));
  return (
    <Modal opened onClose={onClose} title={t('usersAdmin.settings.title', { name: displayName(user) })} centered radius="lg" attributes={{ content: { 'data-testid': 'settings-dialog' } }}>
      {settings.isPending ? (
        <Stack gap="sm" role="status" aria-busy="true" aria-label={t('page.loading')}>
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} height={32} radius="sm" />
          ))}
        </Stack>
      ) : settings.isError ? (
        <ListError error={settings.error} onRetry={() => void settings.refetch()} testId="settings-load-error" />
      ) : (
        <SettingsForm settings={settings.data} self={self} onClose={onClose} />
      )}
    </Modal>
  );
}

function SettingsForm({ settings, self, onClose }: { settings: AdminUserSettingsOut; self: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [flags, setFlags] = useState<Flags>(() => flagsOf(settings));
  const save = useSaveUserSettings();
  const changes = settingsChanges(settings, flags);
  const changed = Object.keys(changes).length > 0;
  const toggle = (flag: Flag) => (
    <Switch
      key={flag}
      label={t(`usersAdmin.settings.${flag}`)}
      description={MAIN.includes(flag) ? t(`usersAdmin.settings.${flag as 'is_admin' | 'cm' | 'trusted' | 'potential_creator' | 'user_active'}Hint`) : undefined}
      checked={flags[flag]}
      // An admin cannot take their own rights or sign-in away here.
      disabled={self && (flag === 'is_admin' || flag === 'user_active')}
      onChange={(event) => {
        const checked = event.currentTarget.checked;
        setFlags((current) => ({ ...current, [flag]: checked }));
      }}
      data-testid={`setting-${flag}`}
    />
  );
  const submit = () =>
    save.mutate(
      { userid: settings.userid, ...changes },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('usersAdmin.settings.saved') });
          onClose();
        },
      },
    );
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('usersAdmin.settings.intro')}
      </Text>
      <Stack gap="sm">{MAIN.map(toggle)}</Stack>
      <Divider label={t('usersAdmin.settings.pendingGroup')} labelPosition="left" />
      <Stack gap="sm">{PENDING.map(toggle)}</Stack>
      {save.isError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('usersAdmin.settings.failed')} data-testid="settings-error">
          {errorMessage(save.error, t('page.errorText'))}
        </Alert>
      )}
      <Group justify="space-between" gap="sm">
        <Text size="xs" c="dimmed">
          {changed ? '' : t('usersAdmin.settings.nothingChanged')}
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={submit} disabled={!changed} loading={save.isPending} data-testid="settings-save">
            {t('usersAdmin.settings.save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
