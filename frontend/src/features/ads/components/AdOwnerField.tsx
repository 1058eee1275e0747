import { Fieldset } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { UserPicker } from '../../../shared/users/UserPicker';
import type { AdFormType } from './AdForm';

/**
 * Spec §6: an admin adds an ad on behalf of a user (POST on-behalf-of), found by platform username
 * as in the media form; left empty, the ad is the admin's own.
 */
export function AdOwnerField({ form }: { form: AdFormType }) {
  const { t } = useTranslation();
  return (
    <Fieldset legend={t('adForm.staffLegend')} radius="md">
      <UserPicker
        initial={form.values.onBehalfOf}
        onPick={(user) => form.setFieldValue('onBehalfOf', user)}
        label={t('adForm.onBehalfOf')}
        description={t('adForm.onBehalfOfHint')}
        placeholder={t('adForm.onBehalfOfPlaceholder')}
        error={form.errors.onBehalfOf}
        testId="ad-on-behalf-of"
        zIndex={400}
      />
    </Fieldset>
  );
}
