import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Group } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { TagPicker } from '../../../shared/media/TagPicker';
import { hashtagsIn } from '../../../shared/tags/hashtags';
import { MAX_TAGS } from '../model/mediaForm';
import { selectTags, type TagAction } from '../model/tagSelection';
import type { MediaForm } from './MediaForm';

/** Spec §5: at most 10 tags, suggested from the text plus picked by hand; search by name. */
export function TagsField({ form }: { form: MediaForm }) {
  const { t } = useTranslation();
  const { tags, categoryId, mediaTypeId, description } = form.values;
  const hashtags = hashtagsIn(description);
  const apply = (action: TagAction) => form.setFieldValue('tags', selectTags(form.getValues().tags, action));

  return (
    <TagPicker
      tags={tags}
      max={MAX_TAGS}
      categoryId={categoryId ? Number(categoryId) : null}
      mediaTypeId={mediaTypeId ? Number(mediaTypeId) : null}
      error={form.errors.tags}
      onAdd={(tag) => apply({ type: 'add', tag })}
      onRemove={(id) => apply({ type: 'remove', id })}
      texts={{
        label: t('mediaForm.tags'),
        // Hashtags of the description that name a tag become tags on saving (within the 10), so say so
        // once the description has any.
        hint:
          hashtags.length > 0
            ? `${t('mediaForm.tagsHint', { count: tags.length, max: MAX_TAGS })} ${t('mediaForm.hashtagsHint', { max: MAX_TAGS, hashtags: hashtags.map((word) => `#${word}`).join(' ') })}`
            : t('mediaForm.tagsHint', { count: tags.length, max: MAX_TAGS }),
        placeholder: t('mediaForm.tagsPlaceholder'),
        full: t('mediaForm.tagsFull', { max: MAX_TAGS }),
        search: t('mediaForm.tagsSearch'),
        noTags: t('mediaForm.noTags'),
        removeTag: (name) => t('mediaForm.removeTag', { tag: name }),
      }}
      testId="media-tags"
      renderTag={(tag) => (
        <Group gap={4} wrap="nowrap" component="span">
          {tag.source === 'suggested' && <IconSparkles size={12} aria-label={t('mediaForm.suggestedTag')} />}
          {tag.name}
        </Group>
      )}
    />
  );
}
