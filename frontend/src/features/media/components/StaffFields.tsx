import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Fieldset, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { UserPicker } from '../../../shared/users/UserPicker';
import type { MediaForm } from './MediaForm';

interface StaffFieldsProps {
  form: MediaForm;
  /** An admin adding a tour names its owner (spec §5 'select user'). */
  isAdmin: boolean;
  /** Spec §6 CM: Creator Name and Creator Website (third_party_creator, creator_website). */
  isContentManager: boolean;
}

export function StaffFields({ form, isAdmin, isContentManager }: StaffFieldsProps) {
  const { t } = useTranslation();
  if (!isAdmin && !isContentManager) return null;
  return (
    <Fieldset legend={t('mediaForm.staffLegend')} radius="md">
      <Stack gap="sm">
        {isAdmin && <OnBehalfOfField form={form} />}
        {isContentManager && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label={t('mediaForm.creatorName')} maxLength={200} {...form.getInputProps('thirdPartyCreator')} />
            <TextInput label={t('mediaForm.creatorWebsite')} placeholder="https://" type="url" {...form.getInputProps('creatorWebsite')} />
          </SimpleGrid>
        )}
      </Stack>
    </Fieldset>
  );
}

/** Spec §6: admins add media on behalf of a user, found by platform username. */
function OnBehalfOfField({ form }: { form: MediaForm }) {
  const { t } = useTranslation();
  return (
    <UserPicker
      initial={form.values.onBehalfOf}
      onPick={(user) => form.setFieldValue('onBehalfOf', user)}
      label={t('mediaForm.onBehalfOf')}
      description={t('mediaForm.onBehalfOfHint')}
      placeholder={t('mediaForm.onBehalfOfPlaceholder')}
      required
      error={form.errors.onBehalfOf}
      testId="media-on-behalf-of"
    />
  );
}
