import { ActionIcon, Alert, Button, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import { type Release, useSaveRelease } from '../api/releasesApi';
import {
  draftOf,
  emptyDraft,
  ITEM_DESCRIPTION_MAX,
  ITEM_LISTS,
  ITEM_TITLE_MAX,
  ITEMS_PER_LIST_MAX,
  type ItemDraft,
  type ItemList,
  newItem,
  RELEASE_NAME_MAX,
  type ReleaseDraft,
  type ReleaseError,
  type ReleaseErrors,
  toReleaseIn,
  validateRelease,
  VERSION_MAX,
} from '../model/releaseForm';
import classes from './Updates.module.css';

/** The edit mode: a release's name, version, date and time and its four item lists, saved whole. */
export function ReleaseForm({ release, onDone }: { release: Release | null; onDone: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<ReleaseDraft>(() => (release ? draftOf(release) : emptyDraft()));
  const [errors, setErrors] = useState<ReleaseErrors>({});
  const save = useSaveRelease();
  const server = fieldErrors(save.error);

  const describe = (field: string, max?: number): string | undefined => {
    const error: ReleaseError | undefined = errors[field];
    if (error) return t(`updates.form.${error}`, { max });
    return server[field];
  };
  const setLists = (list: ItemList, items: ItemDraft[]) => setDraft((current) => ({ ...current, lists: { ...current.lists, [list]: items } }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateRelease(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(toReleaseIn(draft), {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('updates.form.saved') });
        onDone();
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate data-testid="release-form">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {release ? t('updates.form.editTitle', { version: release.releaseVersion }) : t('updates.form.createTitle')}
        </Title>
        <TextInput
          label={t('updates.form.name')}
          required
          maxLength={RELEASE_NAME_MAX}
          value={draft.name}
          onChange={(event) => setDraft({ ...draft, name: event.currentTarget.value })}
          error={describe('releaseName', RELEASE_NAME_MAX)}
          data-testid="release-name"
        />
        <Group grow align="flex-start" wrap="wrap">
          <TextInput
            label={t('updates.form.version')}
            description={t('updates.form.versionHint')}
            required
            maxLength={VERSION_MAX}
            value={draft.version}
            onChange={(event) => setDraft({ ...draft, version: event.currentTarget.value })}
            error={describe('releaseVersion', VERSION_MAX)}
            data-testid="release-version"
          />
          <TextInput
            type="date"
            label={t('updates.form.date')}
            required
            value={draft.date}
            onChange={(event) => setDraft({ ...draft, date: event.currentTarget.value })}
            error={describe('releaseDate')}
          />
          <TextInput
            label={t('updates.form.time')}
            placeholder="09:30"
            maxLength={5}
            value={draft.time}
            onChange={(event) => setDraft({ ...draft, time: event.currentTarget.value })}
            error={describe('releaseTime')}
          />
        </Group>
        {ITEM_LISTS.map((list) => (
          <ItemListEditor key={list} list={list} items={draft.lists[list]} onChange={(items) => setLists(list, items)} describe={describe} />
        ))}
        {save.isError && Object.keys(server).length === 0 && <Alert color="red">{errorMessage(save.error, t('updates.form.saveFailed'))}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" radius="xl" onClick={onDone}>
            {t('updates.cancel')}
          </Button>
          <Button type="submit" radius="xl" loading={save.isPending} data-testid="release-save">
            {t('updates.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface ItemListEditorProps {
  list: ItemList;
  items: ItemDraft[];
  onChange: (items: ItemDraft[]) => void;
  describe: (field: string, max?: number) => string | undefined;
}

function ItemListEditor({ list, items, onChange, describe }: ItemListEditorProps) {
  const { t } = useTranslation();
  const heading = t(`updates.sections.${list}`);
  const update = (index: number, change: Partial<ItemDraft>) => onChange(items.map((item, at) => (at === index ? { ...item, ...change } : item)));
  return (
    <fieldset aria-label={heading} style={{ border: 0, padding: 0, margin: 0 }}>
      <Group justify="space-between" mb={4}>
        <Text component="legend" fw={700} size="sm">
          {heading}
        </Text>
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconPlus size={12} />}
          disabled={items.length >= ITEMS_PER_LIST_MAX}
          onClick={() => onChange([...items, newItem()])}
          aria-label={`${t('updates.form.addItem')}: ${heading}`}
          data-testid={`add-${list}`}
        >
          {t('updates.form.addItem')}
        </Button>
      </Group>
      {items.length === 0 && (
        <Text size="xs" c="dimmed">
          {t('updates.form.noItems')}
        </Text>
      )}
      <Stack gap="xs">
        {items.map((item, index) => (
          <div key={item.key} className={classes.itemCard}>
            <Group align="flex-start" wrap="nowrap" gap="xs">
              <Stack gap={6} style={{ flex: 1 }}>
                <TextInput
                  label={t('updates.form.itemTitle')}
                  required
                  maxLength={ITEM_TITLE_MAX}
                  value={item.title}
                  onChange={(event) => update(index, { title: event.currentTarget.value })}
                  error={describe(`${list}.${index}.title`, ITEM_TITLE_MAX)}
                  data-testid={`${list}-title-${index}`}
                />
                <Textarea
                  label={t('updates.form.itemDescription')}
                  autosize
                  minRows={1}
                  maxLength={ITEM_DESCRIPTION_MAX}
                  value={item.description}
                  onChange={(event) => update(index, { description: event.currentTarget.value })}
                  error={describe(`${list}.${index}.description`, ITEM_DESCRIPTION_MAX)}
                />
              </Stack>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={24}
                aria-label={t('updates.form.removeItem')}
                onClick={() => onChange(items.filter((_, at) => at !== index))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          </div>
        ))}
      </Stack>
    </fieldset>
  );
}
