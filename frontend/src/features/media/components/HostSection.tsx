import { Alert, Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconExternalLink, IconLock, IconWorldWww } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import type { VendorOut } from '../../../shared/api/generated/types.gen';
import { parseJson, STORAGE_KEYS, storedValue, writeItem, writeJson } from '../../../shared/storage/localStore';
import type { MediaForm } from './MediaForm';

interface HostSectionProps {
  form: MediaForm;
  vendors: readonly VendorOut[];
  vendor: VendorOut | null;
  /** Spec §4: the host cannot be changed on existing media. */
  locked: boolean;
}

/** Hosts grouped as the classifications group them (3D capture, 360 video, …), in the server's order. */
function hostOptions(vendors: readonly VendorOut[]) {
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const vendor of vendors) {
    const group = vendor.group_name ?? '';
    groups.set(group, [...(groups.get(group) ?? []), { value: String(vendor.vendor_id), label: vendor.vendor_name }]);
  }
  return [...groups.entries()].map(([group, items]) => ({ group, items }));
}

/** Spec §2: the host comes first; it decides the link format, and whether a picture is needed. */
export function HostSection({ form, vendors, vendor, locked }: HostSectionProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Select
        label={t('mediaForm.host')}
        description={locked ? t('mediaForm.hostLocked') : t('mediaForm.hostHint')}
        placeholder={t('mediaForm.hostPlaceholder')}
        data={hostOptions(vendors)}
        searchable
        withAsterisk={!locked}
        disabled={locked}
        leftSection={locked ? <IconLock size={16} /> : <IconWorldWww size={16} />}
        comboboxProps={{ withinPortal: true }}
        maxDropdownHeight={250}
        data-testid="media-host"
        {...form.getInputProps('vendorId')}
      />
      {vendor?.is_white_label && !locked && <WhiteLabelHint host={vendor.vendor_name} />}
      {vendor?.preview_picture_required && !locked && <ProviderNotice vendor={vendor} />}
    </Stack>
  );
}

const whiteLabelHintHidden = storedValue(STORAGE_KEYS.notShowWhiteLabel, (raw) => raw === 'true');

/**
 * Spec §2 "white-label host hint": a host that serves tours under the customer's own domain. The
 * link must still be the host's own share link; 'do not show again' is kept locally (notShowWhiteLabel).
 */
function WhiteLabelHint({ host }: { host: string }) {
  const { t } = useTranslation();
  const hidden = whiteLabelHintHidden.useStore();
  if (hidden) return null;
  return (
    <Alert variant="light" color="blue" radius="md" title={t('mediaForm.whiteLabelTitle')} data-testid="white-label-hint">
      <Stack gap="xs">
        <Text size="sm">{t('mediaForm.whiteLabelText', { host })}</Text>
        <Group>
          <Button size="compact-sm" variant="subtle" onClick={() => writeItem(STORAGE_KEYS.notShowWhiteLabel, 'true')}>
            {t('mediaForm.doNotShowAgain')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

const isIdList = (value: unknown): value is number[] => Array.isArray(value) && value.every((item) => typeof item === 'number');

/** The hosts whose notice the user has acknowledged (ids). */
const acknowledgedHosts = storedValue(STORAGE_KEYS.providerAttention, (raw): readonly number[] => parseJson(raw, isIdList) ?? []);

/**
 * Spec §2 "a provider-specific notice with a video link": hosts that share no preview picture need
 * one uploaded. Once acknowledged for a host (the provider attention flag) it is not shown again.
 */
function ProviderNotice({ vendor }: { vendor: VendorOut }) {
  const { t } = useTranslation();
  const acknowledged = acknowledgedHosts.useStore();
  if (acknowledged.includes(vendor.vendor_id)) return null;
  const acknowledge = () => writeJson(STORAGE_KEYS.providerAttention, [...acknowledged, vendor.vendor_id]);
  return (
    <Alert variant="light" color="yellow" radius="md" icon={<IconAlertTriangle size={18} />} title={t('mediaForm.providerNoticeTitle', { host: vendor.vendor_name })} data-testid="provider-notice">
      <Stack gap="xs">
        <Text size="sm">{t('mediaForm.providerNoticeText', { host: vendor.vendor_name })}</Text>
        <Group gap="md">
          {vendor.website && (
            <Anchor href={vendor.website} target="_blank" rel="noopener noreferrer" size="sm">
              <Group gap={4} component="span">
                {t('mediaForm.providerNoticeLink', { host: vendor.vendor_name })}
                <IconExternalLink size={14} />
              </Group>
            </Anchor>
          )}
          <Button size="compact-sm" variant="subtle" color="yellow.9" onClick={acknowledge}>
            {t('mediaForm.understood')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
