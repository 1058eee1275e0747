import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconHourglassHigh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { creatorQueryKeys } from '../../../shared/creators/creatorQueryKeys';
import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';
import { FormDialog } from '../../../shared/ui/FormDialog';
import { showMessageDialog } from '../../../shared/ui/messageDialog';
import { profileToFormValues } from '../model/creatorForm';
import type { CreatorProfile } from '../model/creatorProfile';
import { CreatorProfileForm } from './CreatorProfileForm';

/**
 * Spec §2 "creator edit modal" / edit mode of the creator page: the profile form, prefilled. An edit
 * usually waits for an administrator (201 AddEditPending: the published profile stays until then); an
 * edit that applies (200 Updated: trusted creators) refreshes the page at once.
 */
export function CreatorEditDialog({ profile, opened, onClose }: { profile: CreatorProfile; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: creatorQueryKeys.all });
    void queryClient.invalidateQueries({ queryKey: discoveryQueryKeys.all });
  };

  return (
    <FormDialog opened={opened} onClose={onClose} title={t('creatorEdit.title')} size="xl">
      {profile.edit_pending && (
        <Alert color="yellow" variant="light" radius="md" mb="lg" icon={<IconHourglassHigh size={18} />} data-testid="creator-edit-replaces">
          {t('creatorEdit.replacesPending')}
        </Alert>
      )}
      <CreatorProfileForm
        mode="edit"
        initial={profileToFormValues(profile)}
        userId={profile.userid}
        context={{ creatorId: profile.id, joinedGroup: profile.joined_fb_group, profileScale: profile.img_settings.profileScale }}
        onCancel={onClose}
        onSaved={(outcome) => {
          refresh();
          onClose();
          if (outcome.kind === 'pending') {
            showMessageDialog({
              title: t('creatorEdit.pendingTitle'),
              message: t('creatorEdit.pendingText'),
              okLabel: t('common.ok'),
              testId: 'creator-edit-pending',
            });
          } else {
            notifications.show({ color: 'teal', message: t('creatorEdit.updated') });
          }
        }}
      />
    </FormDialog>
  );
}
