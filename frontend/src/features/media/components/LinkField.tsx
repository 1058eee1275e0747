import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Loader, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import type { VendorOut } from '../../../shared/api/generated/types.gen';
import type { MediaForm } from './MediaForm';
import type { MediaLookup } from './useMediaLookup';

interface LinkFieldProps {
  form: MediaForm;
  vendor: VendorOut | null;
  lookup: MediaLookup;
  mode: 'add' | 'edit';
}

function LookupState({ lookup }: { lookup: MediaLookup }) {
  const { t } = useTranslation();
  if (lookup.looking) return <Loader size={16} aria-label={t('mediaForm.lookingUp')} />;
  if (lookup.found) return <IconCircleCheck size={18} color="var(--mantine-color-teal-6)" aria-label={t('mediaForm.lookupFound')} />;
  if (lookup.failed) return <IconAlertTriangle size={18} color="var(--mantine-color-yellow-7)" aria-label={t('mediaForm.lookupFailed')} />;
  return null;
}

/** The tour's share link; its placeholder is the host's link format (spec §3 Vendor link_header). */
export function LinkField({ form, vendor, lookup, mode }: LinkFieldProps) {
  const { t } = useTranslation();
  const needsHost = mode === 'add' && vendor === null;
  return (
    <div>
      <TextInput
        label={t('mediaForm.link')}
        placeholder={vendor?.link_header ?? t('mediaForm.linkPlaceholder')}
        description={needsHost ? t('mediaForm.linkNeedsHost') : t('mediaForm.linkHint')}
        withAsterisk
        type="url"
        inputMode="url"
        autoComplete="off"
        disabled={needsHost}
        leftSection={<IconLink size={16} />}
        rightSection={<LookupState lookup={lookup} />}
        data-testid="media-link"
        {...form.getInputProps('link')}
        error={form.errors.link ?? (mode === 'add' && lookup.linkTaken ? t('mediaForm.errors.linkNotUnique') : undefined)}
      />
      {lookup.failed && (
        <Text size="xs" c="yellow.8" mt={4} role="status">
          {lookup.failureMessage && (
            <>
              {lookup.failureMessage}
              <br />
            </>
          )}
          {t('mediaForm.lookupFailedHint')}
        </Text>
      )}
      {lookup.found && (
        <Text size="xs" c="teal.7" mt={4} role="status" data-testid="lookup-found">
          {t('mediaForm.lookupFoundHint')}
        </Text>
      )}
    </div>
  );
}
