import { Combobox, Input, Loader, Pill, PillsInput, Text, useCombobox } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';

import { tagsQueryOptions } from '../dictionaries/queries';
import { useDebouncedValue } from '../timing/useDebouncedValue';

const TAG_SEARCH_DEBOUNCE_MS = 300;
const SHOWN_OPTIONS = 30;

export interface PickedTag {
  id: number;
  name: string;
  /** Where the tag came from, written on the pill as data-source (the media form's tags have one). */
  source?: string;
}

/** The caller's texts: each form names its tags in its own words. */
export interface TagPickerTexts {
  label: string;
  hint: string;
  placeholder: string;
  full: string;
  search: string;
  noTags: string;
  removeTag: (name: string) => string;
}

interface TagPickerProps<Tag extends PickedTag> {
  tags: readonly Tag[];
  max: number;
  /** Narrows the searched tags to a category and a media type; null searches them all. */
  categoryId: number | null;
  mediaTypeId: number | null;
  error: ReactNode;
  onAdd: (tag: { id: number; name: string }) => void;
  onRemove: (id: number) => void;
  texts: TagPickerTexts;
  testId: string;
  /** The dropdown's z-index, for pickers inside a dialog above Mantine's default layer. */
  zIndex?: number;
  /** A pill's content; the tag's name by default. */
  renderTag?: (tag: Tag) => ReactNode;
}

/** Tags searched by name and picked by hand, at most `max` of them (spec §5; the Ad form's too). */
export function TagPicker<Tag extends PickedTag>(props: TagPickerProps<Tag>) {
  const { tags, texts } = props;
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const { debounced } = useDebouncedValue(search, TAG_SEARCH_DEBOUNCE_MS);
  const full = tags.length >= props.max;
  const options = useQuery({
    ...tagsQueryOptions({ search: debounced, categoryId: props.categoryId, mediaTypeId: props.mediaTypeId }),
    enabled: combobox.dropdownOpened && !full,
    placeholderData: keepPreviousData,
  });
  const chosen = new Set(tags.map((tag) => tag.id));
  const available = (options.data ?? []).filter((tag) => !chosen.has(tag.id)).slice(0, SHOWN_OPTIONS);

  return (
    <Input.Wrapper label={texts.label} description={texts.hint} error={props.error}>
      <Combobox
        store={combobox}
        withinPortal
        zIndex={props.zIndex}
        onOptionSubmit={(value) => {
          const tag = available.find((item) => String(item.id) === value);
          if (tag) props.onAdd({ id: tag.id, name: tag.name });
          setSearch('');
        }}
      >
        <Combobox.DropdownTarget>
          <PillsInput mt={6} onClick={() => combobox.openDropdown()} data-testid={props.testId}>
            <Pill.Group>
              {tags.map((tag) => (
                <Pill
                  key={tag.id}
                  withRemoveButton
                  onRemove={() => props.onRemove(tag.id)}
                  removeButtonProps={{ 'aria-label': texts.removeTag(tag.name) }}
                  data-source={tag.source}
                >
                  {props.renderTag ? props.renderTag(tag) : tag.name}
                </Pill>
              ))}
              <Combobox.EventsTarget>
                <PillsInput.Field
                  value={search}
                  placeholder={full ? texts.full : texts.placeholder}
                  disabled={full}
                  aria-label={texts.search}
                  onFocus={() => combobox.openDropdown()}
                  onBlur={() => combobox.closeDropdown()}
                  onChange={(event) => {
                    setSearch(event.currentTarget.value);
                    combobox.openDropdown();
                    combobox.updateSelectedOptionIndex();
                  }}
                  onKeyDown={(event) => {
                    const last = tags.at(-1);
                    if (event.key === 'Backspace' && search === '' && last) props.onRemove(last.id);
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
              <Combobox.Empty>{texts.noTags}</Combobox.Empty>
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
