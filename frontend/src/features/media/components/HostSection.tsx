import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconExternalLink, IconLock, IconPlayerPlay, IconWorldWww } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

import type { DiscoverHost, VendorChoiceOut, VendorOut } from '../../../shared/api/generated/types.gen';
import { parseJson, STORAGE_KEYS, storedValue, writeItem, writeJson } from '../../../shared/storage/localStore';
import { openHostRequestDialog } from '../../../shared/vendors/hostRequestDialog';
import { providerVideoLink } from '../model/providerVideo';
import type { MediaForm } from './MediaForm';

interface HostSectionProps {
  form: MediaForm;
  vendors: readonly (VendorOut & Partial<Pick<VendorChoiceOut, 'is_custom' | 'status'>>)[];
  vendor: VendorOut | null;
  /** Spec §4: the host cannot be changed on existing media. */
  locked: boolean;
  /** The user's own custom host the looked-up link is on (discover's `host`). */
  ownHost?: DiscoverHost | null;
}

/**
 * Hosts grouped as the classifications group them (3D capture, 360 video, …), in the server's order;
 * the user's own custom hosts last, under their own heading, marked while they wait for approval.
 */
function hostOptions(vendors: HostSectionProps['vendors'], t: TFunction) {
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const vendor of vendors) {
    const group = vendor.is_custom ? t('mediaForm.ownHosts') : (vendor.group_name ?? '');
    const label = vendor.status === 'pending' ? t('mediaForm.hostPending', { host: vendor.vendor_name }) : vendor.vendor_name;
    groups.set(group, [...(groups.get(group) ?? []), { value: String(vendor.vendor_id), label }]);
  }
  return [...groups.entries()].map(([group, items]) => ({ group, items }));
}

/** Spec §2: the host comes first; it decides the link format, and whether a picture is needed. */
export function HostSection({ form, vendors, vendor, locked, ownHost = null }: HostSectionProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Select
        label={t('mediaForm.host')}
        description={locked ? t('mediaForm.hostLocked') : t('mediaForm.hostHint')}
        placeholder={t('mediaForm.hostPlaceholder')}
        data={hostOptions(vendors, t)}
        searchable
        withAsterisk={!locked}
        disabled={locked}
        leftSection={locked ? <IconLock size={16} /> : <IconWorldWww size={16} />}
        comboboxProps={{ withinPortal: true }}
        maxDropdownHeight={250}
        data-testid="media-host"
        {...form.getInputProps('vendorId')}
      />
      {!locked && (
        <Text size="xs" mt={-4}>
          <Anchor component="button" type="button" size="xs" onClick={openHostRequestDialog} data-testid="media-host-not-listed">
            {t('mediaForm.hostNotListed')}
          </Anchor>
        </Text>
      )}
      {!locked && ownHost ? (
        <WhiteLabelHint host={ownHost.vendor_name} own pending={ownHost.status === 'pending'} />
      ) : (
        vendor?.is_white_label && !locked && <WhiteLabelHint host={vendor.vendor_name} />
      )}
      {vendor?.preview_picture_required && !locked && <ProviderNotice vendor={vendor} />}
    </Stack>
  );
}

const whiteLabelHintHidden = storedValue(STORAGE_KEYS.notShowWhiteLabel, (raw) => raw === 'true');

/**
 * Spec §2 "white-label host hint": a host that serves tours under the customer's own domain. The
 * link must still be the host's own share link; 'do not show again' is kept locally (notShowWhiteLabel).
 */
function WhiteLabelHint({ host, own = false, pending = false }: { host: string; own?: boolean; pending?: boolean }) {
  const { t } = useTranslation();
  const hidden = whiteLabelHintHidden.useStore();
  if (hidden) return null;
  return (
    <Alert
      variant="light"
      color="blue"
      radius="md"
      title={t(own ? 'mediaForm.whiteLabelOwnTitle' : 'mediaForm.whiteLabelTitle', { host })}
      data-testid="white-label-hint"
      data-own-host={own ? 'true' : undefined}
    >
      <Stack gap="xs">
        <Text size="sm">{t(own ? 'mediaForm.whiteLabelOwnText' : 'mediaForm.whiteLabelText', { host })}</Text>
        {own && pending && <Text size="sm">{t('mediaForm.whiteLabelOwnPending', { host })}</Text>}
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
 * one uploaded; the notice links to videos showing how to share a tour and take its picture on that
 * host. Once acknowledged for a host (the provider attention flag) it is not shown again.
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
          <Anchor href={providerVideoLink(vendor.vendor_name)} target="_blank" rel="noopener noreferrer" size="sm" data-testid="provider-notice-video">
            <Group gap={4} component="span">
              <IconPlayerPlay size={14} aria-hidden="true" />
              {t('mediaForm.providerNoticeVideo', { host: vendor.vendor_name })}
              <IconExternalLink size={14} aria-hidden="true" />
            </Group>
          </Anchor>
          {vendor.website && (
            <Anchor href={vendor.website} target="_blank" rel="noopener noreferrer" size="sm">
              <Group gap={4} component="span">
                {t('mediaForm.providerNoticeLink', { host: vendor.vendor_name })}
                <IconExternalLink size={14} aria-hidden="true" />
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
