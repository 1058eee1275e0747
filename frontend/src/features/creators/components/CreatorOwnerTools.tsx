import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Anchor, Button, CloseButton, Group, Stack, Text } from '@mantine/core';
import { IconHourglassHigh, IconPencil, IconSettings, IconUsersGroup } from '@tabler/icons-react';
import { lazy, useEffect, useState } from 'react';

import { createStore } from '../../../shared/lib/store';
import { useTranslation } from 'react-i18next';

import { CREATOR_GROUP_URL } from '../../../shared/config/links';
import { readJson, STORAGE_KEYS, writeItem } from '../../../shared/storage/localStore';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';
import type { CreatorProfile } from '../model/creatorProfile';
import classes from './CreatorOwnerTools.module.css';

// The form and the settings are for the owner only: fetched when first opened.
const CreatorEditDialog = lazy(async () => ({ default: (await import('./CreatorEditDialog')).CreatorEditDialog }));
const CreatorSettingsDialog = lazy(async () => ({ default: (await import('./CreatorSettingsDialog')).CreatorSettingsDialog }));

type Open = 'edit' | 'settings' | null;

// Outside the page's layout: a phone turned sideways (or a resized window) keeps the dialog and its typing.
const ownerDialog = createStore<Open>(null);
const closeOwnerDialog = () => ownerDialog.set(null);

/**
 * The creator page's edit mode for its owner (spec §2): edit the profile, creator settings, the notice
 * that an edit waits for approval (the published profile stays until then), and the invitation to
 * the creators' group until joined or dismissed. The dialogs are CreatorOwnerDialogs.
 */
export function CreatorOwnerTools({ profile }: { profile: CreatorProfile }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="creator-owner-tools">
      {profile.edit_pending && (
        <Alert
          color="yellow"
          variant="light"
          radius="md"
          icon={<IconHourglassHigh size={18} />}
          title={t('creatorEdit.bannerTitle')}
          data-testid="creator-edit-pending-banner"
        >
          {t('creatorEdit.bannerText')}
        </Alert>
      )}
      <Group gap="xs" wrap="wrap">
        <Button radius="xl" size="sm" leftSection={<IconPencil size={16} aria-hidden="true" />} onClick={() => ownerDialog.set('edit')} data-testid="creator-edit">
          {t('creatorEdit.open')}
        </Button>
        <Button radius="xl" size="sm" variant="default" leftSection={<IconSettings size={16} aria-hidden="true" />} onClick={() => ownerDialog.set('settings')} data-testid="creator-settings-open">
          {t('creatorSettings.open')}
        </Button>
      </Group>
      <GroupInvitation profile={profile} groupUrl={CREATOR_GROUP_URL} />
    </Stack>
  );
}

/** The owner's edit and settings dialogs, fetched when first opened. */
export function CreatorOwnerDialogs({ profile }: { profile: CreatorProfile }) {
  const open = ownerDialog.useStore();
  useEffect(() => closeOwnerDialog, []); // leaving the page closes them
  return (
    <>
      <MountWhenOpened opened={open === 'edit'}>
        <CreatorEditDialog profile={profile} opened={open === 'edit'} onClose={closeOwnerDialog} />
      </MountWhenOpened>
      <MountWhenOpened opened={open === 'settings'}>
        {/* Keyed on its opening: reopened after a refresh, it starts from what is published. */}
        <CreatorSettingsDialog key={`${profile.id}-${String(open === 'settings')}`} profile={profile} opened={open === 'settings'} onClose={closeOwnerDialog} />
      </MountWhenOpened>
    </>
  );
}

const isIdList = (value: unknown): value is number[] => Array.isArray(value) && value.every((item) => typeof item === 'number');

function dismissedGroups(): number[] {
  return readJson(STORAGE_KEYS.creatorGroupDismissed, isIdList) ?? [];
}

/**
 * Spec §2 "group invitation": the optional invitation to the creators' social-network group, on the
 * creator's own page until they have joined (creator settings) or dismissed it here.
 */
export function GroupInvitation({ profile, groupUrl }: { profile: CreatorProfile; groupUrl: string }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(() => dismissedGroups().includes(profile.id));
  if (!groupUrl || profile.joined_fb_group || dismissed) return null;
  const dismiss = () => {
    writeItem(STORAGE_KEYS.creatorGroupDismissed, JSON.stringify([...new Set([...dismissedGroups(), profile.id])]));
    setDismissed(true);
  };
  return (
    <section className={classes.invitation} aria-labelledby="creator-group-title" data-testid="creator-group-invitation">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconUsersGroup size={22} className={classes.invitationIcon} aria-hidden="true" />
        <Stack gap={4} style={{ flex: 1 }}>
          <Text fw={700} size="sm" id="creator-group-title">
            {t('creatorGroup.title')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('creatorGroup.text')}
          </Text>
          <Anchor href={groupUrl} target="_blank" rel="noopener noreferrer" size="sm" fw={600} data-testid="creator-group-join">
            {t('creatorGroup.join')}
          </Anchor>
        </Stack>
        <CloseButton size="sm" aria-label={t('creatorGroup.dismiss')} onClick={dismiss} data-testid="creator-group-dismiss" />
      </Group>
    </section>
  );
}
