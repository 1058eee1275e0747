import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

import { errorMessage } from '../../../shared/api/apiError';
import type { DiscoverHost, VendorOut } from '../../../shared/api/generated/types.gen';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { linkExistsQueryOptions, lookupQueryOptions, suggestionsQueryOptions } from '../api/mediaApi';
import { isLookupCandidate } from '../model/mediaForm';
import { selectTags } from '../model/tagSelection';
import type { MediaForm } from './MediaForm';
import { setFields } from './setFields';

/** Typing pauses this long before the provider is asked about the link. */
const LINK_DEBOUNCE_MS = 800;
/** Tags and category are suggested once the title and description stop changing. */
const TEXT_DEBOUNCE_MS = 1200;

export interface MediaLookup {
  /** The provider lookup is running. */
  looking: boolean;
  /** The last lookup succeeded and filled the form. */
  found: boolean;
  /** The last lookup failed: the image is required and was cleared (spec §4). */
  failed: boolean;
  /** Why it failed, in the server's words (e.g. the link is on the user's own host), if it said. */
  failureMessage: string | null;
  /** The user's own custom host the found link is on (the white-label host hint). */
  ownHost: DiscoverHost | null;
  linkTaken: boolean;
  suggesting: boolean;
  reset: () => void;
}

/**
 * Spec §4 "Add media form": the link triggers a lookup that fills image, description, title and
 * address; tags and category are then suggested from title and description. Editing never looks the
 * link up again (the host and link stay), but a changed text still gets suggestions.
 */
export function useMediaLookup(form: MediaForm, vendor: VendorOut | null, mode: 'add' | 'edit'): MediaLookup {
  const link = form.values.link.trim();
  const { debounced: debouncedLink } = useDebouncedValue(link, LINK_DEBOUNCE_MS);
  const lookupEnabled = mode === 'add' && vendor !== null && isLookupCandidate(debouncedLink);
  const lookup = useQuery({ ...lookupQueryOptions(debouncedLink, vendor?.vendor_name ?? ''), enabled: lookupEnabled });
  const exists = useQuery({ ...linkExistsQueryOptions(debouncedLink), enabled: mode === 'add' && isLookupCandidate(debouncedLink) });
  const applied = useRef<unknown>(null);

  useEffect(() => {
    if (!lookupEnabled || applied.current === (lookup.data ?? lookup.error)) return;
    if (lookup.data) {
      applied.current = lookup.data;
      const found = lookup.data;
      const values = form.getValues();
      setFields(form, {
        // A page without an image leaves the picture as it is (an upload, or nothing).
        previewPicture: found.image || values.previewPicture,
        title: values.title.trim() ? values.title : (found.title ?? ''),
        description: values.description.trim() ? values.description : (found.description ?? '').slice(0, 4000),
        ...(found.address_str && !values.addressStr.trim() ? { addressStr: found.address_str, addressId: found.address_id ?? null, hasAddress: true } : {}),
      });
      form.clearFieldError('previewPicture');
    } else if (lookup.error) {
      applied.current = lookup.error;
      form.setFieldValue('previewPicture', '');
    }
  }, [form, lookup.data, lookup.error, lookupEnabled]);

  const text = { title: form.values.title.trim(), description: form.values.description.trim() };
  const { debounced: debouncedText } = useDebouncedValue(text.title + '\n' + text.description, TEXT_DEBOUNCE_MS);
  const initialText = useRef(`${form.getInitialValues().title.trim()}\n${form.getInitialValues().description.trim()}`);
  const suggestEnabled = debouncedText.trim() !== '' && debouncedText !== initialText.current;
  const suggestions = useQuery({ ...suggestionsQueryOptions(debouncedText), enabled: suggestEnabled });

  // Each answer is applied once: a tag the user removes afterwards stays removed.
  const appliedSuggestions = useRef<unknown>(null);
  useEffect(() => {
    if (!suggestEnabled || !suggestions.data || appliedSuggestions.current === suggestions.data) return;
    appliedSuggestions.current = suggestions.data;
    const values = form.getValues();
    form.setFieldValue('tags', selectTags(values.tags, { type: 'suggested', tags: suggestions.data.tags }));
    const category = suggestions.data.category_id;
    if (category != null && !values.categoryId && !values.newCategoryMode) form.setFieldValue('categoryId', String(category));
  }, [form, suggestions.data, suggestEnabled]);

  return {
    looking: lookupEnabled && lookup.isFetching,
    found: lookupEnabled && lookup.isSuccess,
    failed: lookupEnabled && lookup.isError,
    failureMessage: lookupEnabled && lookup.isError ? errorMessage(lookup.error, '') || null : null,
    ownHost: lookupEnabled && lookup.isSuccess ? lookup.data.host : null,
    linkTaken: exists.data === true,
    suggesting: suggestEnabled && suggestions.isFetching,
    // After the form is cleared, the answers about the old link and text must not fill it again.
    reset: () => {
      applied.current = lookup.data ?? lookup.error;
      appliedSuggestions.current = suggestions.data ?? null;
      initialText.current = '\n';
    },
  };
}
