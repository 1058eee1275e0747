import { Combobox, Group, Input, Loader, Pill, PillsInput, Text, useCombobox } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { tagsQueryOptions } from '../../../shared/dictionaries/queries';
import { MAX_TAGS } from '../model/mediaForm';
import { canAddTag, selectTags, type TagAction } from '../model/tagSelection';
import type { MediaForm } from './MediaForm';

const TAG_SEARCH_DEBOUNCE_MS = 300;

/** Spec §5: at most 10 tags, suggested from the text plus picked by hand; search by name. */
export function TagsField({ form }: { form: MediaForm }) {
  const { t } = useTranslation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const { debounced } = useDebouncedValue(search, TAG_SEARCH_DEBOUNCE_MS);
  const { tags, categoryId, mediaTypeId } = form.values;
  const full = !canAddTag(tags);
  const options = useQuery({
    ...tagsQueryOptions({ search: debounced, categoryId: categoryId ? Number(categoryId) : null, mediaTypeId: mediaTypeId ? Number(mediaTypeId) : null }),
    enabled: combobox.dropdownOpened && !full,
    placeholderData: keepPreviousData,
  });
  const chosen = new Set(tags.map((tag) => tag.id));
  const available = (options.data ?? []).filter((tag) => !chosen.has(tag.id)).slice(0, 30);

  const apply = (action: TagAction) => form.setFieldValue('tags', selectTags(form.getValues().tags, action));

  return (
    <Input.Wrapper
      label={t('mediaForm.tags')}
      description={t('mediaForm.tagsHint', { count: tags.length, max: MAX_TAGS })}
      error={form.errors.tags}
    >
      <Combobox
        store={combobox}
        withinPortal
        onOptionSubmit={(value) => {
          const tag = available.find((item) => String(item.id) === value);
          if (tag) apply({ type: 'add', tag: { id: tag.id, name: tag.name } });
          setSearch('');
        }}
      >
        <Combobox.DropdownTarget>
          <PillsInput mt={6} onClick={() => combobox.openDropdown()} data-testid="media-tags">
            <Pill.Group>
              {tags.map((tag) => (
                <Pill
                  key={tag.id}
                  withRemoveButton
                  onRemove={() => apply({ type: 'remove', id: tag.id })}
                  removeButtonProps={{ 'aria-label': t('mediaForm.removeTag', { tag: tag.name }) }}
                  data-source={tag.source}
                >
                  <Group gap={4} wrap="nowrap" component="span">
                    {tag.source === 'suggested' && <IconSparkles size={12} aria-label={t('mediaForm.suggestedTag')} />}
                    {tag.name}
                  </Group>
                </Pill>
              ))}
              <Combobox.EventsTarget>
                <PillsInput.Field
                  value={search}
                  placeholder={full ? t('mediaForm.tagsFull', { max: MAX_TAGS }) : t('mediaForm.tagsPlaceholder')}
                  disabled={full}
                  aria-label={t('mediaForm.tagsSearch')}
                  onFocus={() => combobox.openDropdown()}
                  onBlur={() => combobox.closeDropdown()}
                  onChange={(event) => {
                    setSearch(event.currentTarget.value);
                    combobox.openDropdown();
                    combobox.updateSelectedOptionIndex();
                  }}
                  onKeyDown={(event) => {
                    const last = tags.at(-1);
                    if (event.key === 'Backspace' && search === '' && last) apply({ type: 'remove', id: last.id });
                  }}
                />
              </Combobox.EventsTarget>
            </Pill.Group>
          </PillsInput>
        </Combobox.DropdownTarget>
        <Combobox.Dropdown hidden={full}>
          <Combobox.Options mah={200} style={{ overflowY: 'auto' }}>
            {options.isFetching && available.length === 0 ? (
              <Combobox.Empty>
                <Loader size="xs" />
              </Combobox.Empty>
            ) : available.length === 0 ? (
              <Combobox.Empty>{t('mediaForm.noTags')}</Combobox.Empty>
            ) : (
              available.map((tag) => (
                <Combobox.Option value={String(tag.id)} key={tag.id}>
                  <Text size="sm">{tag.name}</Text>
                </Combobox.Option>
              ))
            )}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
    </Input.Wrapper>
  );
}
