import { useTranslation } from 'react-i18next';

import { TagPicker } from '../../../shared/media/TagPicker';
import { type AdTag, MAX_AD_TAGS } from '../model/adForm';
import type { AdFormType } from './AdForm';

/** Add a tag once, and never past the limit. */
export function withTag(tags: readonly AdTag[], tag: AdTag): AdTag[] {
  if (tags.length >= MAX_AD_TAGS || tags.some((item) => item.id === tag.id)) return [...tags];
  return [...tags, tag];
}

/** The ad's tags (at most 10, the serving matches them with the viewer's): searched by name, picked by hand. */
export function AdTagsField({ form }: { form: AdFormType }) {
  const { t } = useTranslation();
  const tags = form.values.tags;
  const setTags = (next: AdTag[]) => form.setFieldValue('tags', next);

  return (
    <TagPicker
      tags={tags}
      max={MAX_AD_TAGS}
      categoryId={null}
      mediaTypeId={null}
      error={form.errors.tags}
      onAdd={(tag) => setTags(withTag(form.getValues().tags, tag))}
      onRemove={(id) => setTags(form.getValues().tags.filter((item) => item.id !== id))}
      texts={{
        label: t('adForm.tags'),
        hint: t('adForm.tagsHint', { count: tags.length, max: MAX_AD_TAGS }),
        placeholder: t('adForm.tagsPlaceholder'),
        full: t('adForm.tagsFull', { max: MAX_AD_TAGS }),
        search: t('adForm.tagsSearch'),
        noTags: t('adForm.noTags'),
        removeTag: (name) => t('adForm.removeTag', { tag: name }),
      }}
      testId="ad-tags"
      zIndex={400}
    />
  );
}
