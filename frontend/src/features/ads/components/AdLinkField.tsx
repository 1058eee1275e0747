import { Loader, TextInput } from '@mantine/core';
import { IconCheck, IconLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { linkExistsQueryOptions } from '../api/adsApi';
import { isHttpsLink, LINK_MAX } from '../model/adForm';
import type { AdFormType } from './AdForm';

/** Typing pauses this long before the link is checked. */
export const LINK_CHECK_DEBOUNCE_MS = 400;

/** idle: nothing to check (empty, not https yet, or the ad's own link); unknown: the check failed. */
export type LinkCheck = 'idle' | 'checking' | 'free' | 'taken' | 'unknown';

/**
 * GET link_exists for the link as typed, once typing pauses: another ad's link is 'taken' (the ad
 * being edited keeps its own). The server checks again on save (409), so a failed check blocks nothing.
 */
export function useLinkCheck(link: string, editedAd: { id: number; link: string } | null): LinkCheck {
  const typed = link.trim();
  const { debounced, waiting } = useDebouncedValue(typed, LINK_CHECK_DEBOUNCE_MS);
  const checkable = isHttpsLink(debounced) && debounced.length <= LINK_MAX && debounced !== editedAd?.link;
  const answer = useQuery({ ...linkExistsQueryOptions(debounced), enabled: checkable });
  if (!isHttpsLink(typed) || typed === editedAd?.link) return 'idle';
  if (waiting || (checkable && answer.isPending)) return 'checking';
  if (answer.isError || !answer.data) return 'unknown';
  if (!answer.data.exists || answer.data.id === editedAd?.id) return 'free';
  return 'taken';
}

/** The ad's link: https, unique; says while typing whether another ad has it. */
export function AdLinkField({ form, check }: { form: AdFormType; check: LinkCheck }) {
  const { t } = useTranslation();
  const props = form.getInputProps('link');
  // The check's verdict shows at once, not only on submit; any other message of the field wins.
  const error = props.error ?? (check === 'taken' ? t('adForm.errors.linkTaken') : undefined);
  const hint = check === 'checking' ? t('adForm.linkChecking') : check === 'free' ? t('adForm.linkFree') : t('adForm.linkHint');
  return (
    <TextInput
      label={t('adForm.link')}
      withAsterisk
      type="url"
      inputMode="url"
      placeholder="https://"
      maxLength={LINK_MAX}
      description={hint}
      leftSection={<IconLink size={16} />}
      rightSection={check === 'checking' ? <Loader size={14} /> : check === 'free' ? <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden="true" /> : null}
      {...props}
      error={error}
      data-testid="ad-link"
      data-link-check={check}
    />
  );
}
