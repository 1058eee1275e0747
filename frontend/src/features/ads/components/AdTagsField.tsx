import { Combobox, Input, Loader, Pill, PillsInput, Text, useCombobox } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { tagsQueryOptions } from '../../../shared/dictionaries/queries';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { type AdTag, MAX_AD_TAGS } from '../model/adForm';
import type { AdFormType } from './AdForm';

const TAG_SEARCH_DEBOUNCE_MS = 300;
const SHOWN_OPTIONS = 30;

/** Add a tag once, and never past the limit. */
export function withTag(tags: readonly AdTag[], tag: AdTag): AdTag[] {
  if (tags.length >= MAX_AD_TAGS || tags.some((item) => item.id === tag.id)) return [...tags];
  return [...tags, tag];
}

/** The ad's tags (at most 10, the serving matches them with the viewer's): searched by name, picked by hand. */
export function AdTagsField({ form }: { form: AdFormType }) {
  const { t } = useTranslation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const { debounced } = useDebouncedValue(search, TAG_SEARCH_DEBOUNCE_MS);
  const tags = form.values.tags;
  const full = tags.length >= MAX_AD_TAGS;
  const options = useQuery({
    ...tagsQueryOptions({ search: debounced, categoryId: null, mediaTypeId: null }),
    enabled: combobox.dropdownOpened && !full,
    placeholderData: keepPreviousData,
  });
  const chosen = new Set(tags.map((tag) => tag.id));
  const available = (options.data ?? []).filter((tag) => !chosen.has(tag.id)).slice(0, SHOWN_OPTIONS);
  const setTags = (next: AdTag[]) => form.setFieldValue('tags', next);

  return (
    <Input.Wrapper label={t('adForm.tags')} description={t('adForm.tagsHint', { count: tags.length, max: MAX_AD_TAGS })} error={form.errors.tags}>
      <Combobox
        store={combobox}
        withinPortal
        zIndex={400}
        onOptionSubmit={(value) => {
          const tag = available.find((item) => String(item.id) === value);
          if (tag) setTags(withTag(form.getValues().tags, { id: tag.id, name: tag.name }));
          setSearch('');
        }}
      >
        <Combobox.DropdownTarget>
          <PillsInput mt={6} onClick={() => combobox.openDropdown()} data-testid="ad-tags">
            <Pill.Group>
              {tags.map((tag) => (
                <Pill
                  key={tag.id}
                  withRemoveButton
                  onRemove={() => setTags(form.getValues().tags.filter((item) => item.id !== tag.id))}
                  removeButtonProps={{ 'aria-label': t('adForm.removeTag', { tag: tag.name }) }}
                >
                  {tag.name}
                </Pill>
              ))}
              <Combobox.EventsTarget>
                <PillsInput.Field
                  value={search}
                  placeholder={full ? t('adForm.tagsFull', { max: MAX_AD_TAGS }) : t('adForm.tagsPlaceholder')}
                  disabled={full}
                  aria-label={t('adForm.tagsSearch')}
                  onFocus={() => combobox.openDropdown()}
                  onBlur={() => combobox.closeDropdown()}
                  onChange={(event) => {
                    setSearch(event.currentTarget.value);
                    combobox.openDropdown();
                    combobox.updateSelectedOptionIndex();
                  }}
                  onKeyDown={(event) => {
                    const last = tags.at(-1);
                    if (event.key === 'Backspace' && search === '' && last) setTags(tags.slice(0, -1));
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
              <Combobox.Empty>{t('adForm.noTags')}</Combobox.Empty>
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
