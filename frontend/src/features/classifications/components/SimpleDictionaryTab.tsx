import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { saveSimpleRow, type SimpleChange, type SimpleKind, type SimpleRow, simpleRowsQueryOptions } from '../api/classificationsApi';
import { useEditorSave } from '../api/useEditorSave';
import { useActiveToggle, useListState } from '../api/useListState';
import { DEVICE_NAME_MAX, NAME_MAX, nameProblem, namesOf, type NameValues, translationsPayload } from '../model/names';
import { ActiveField, EditorModal, FormFooter, NameFields } from './EditorModal';
import { ActiveSwitch, EditButton, ListBody, ListProblem, ListToolbar } from './ListParts';
import { type Column, ResponsiveTable } from './ResponsiveTable';

const TEXTS = {
  'media-types': {
    caption: 'classifications.tabs.mediaTypes',
    newTitle: 'classifications.form.titles.newMediaType',
    editTitle: 'classifications.form.titles.editMediaType',
    max: NAME_MAX,
  },
  'capture-devices': {
    caption: 'classifications.tabs.captureDevices',
    newTitle: 'classifications.form.titles.newCaptureDevice',
    editTitle: 'classifications.form.titles.editCaptureDevice',
    max: DEVICE_NAME_MAX,
  },
} as const;

/** Media types or capture devices: names in English and Russian, tour counts, active switches. */
export function SimpleDictionaryTab({ kind }: { kind: SimpleKind }) {
  const { t } = useTranslation();
  const texts = TEXTS[kind];
  const list = useListState();
  const query = useQuery(simpleRowsQueryOptions(kind, list.params));
  const [editing, setEditing] = useState<{ row: SimpleRow | null } | null>(null);
  const toggle = useActiveToggle<SimpleRow>((row, active) => saveSimpleRow(kind, row.id, { is_active: active }), (row) => row.name);
  const columns: Column<SimpleRow>[] = [
    { key: 'name', label: t('classifications.columns.name'), primary: true, render: (row) => row.name },
    { key: 'ru', label: t('classifications.columns.nameRu'), render: (row) => <span lang="ru">{row.translations.ru ?? '—'}</span> },
    { key: 'tours', label: t('classifications.columns.tours'), numeric: true, render: (row) => row.tours },
    {
      key: 'active',
      label: t('classifications.columns.active'),
      render: (row) => <ActiveSwitch name={row.name} active={row.is_active} busy={toggle.busyId === row.id} onChange={(active) => toggle.toggle(row, row.id, active)} />,
    },
    { key: 'actions', label: t('classifications.columns.actions'), inHeading: true, render: (row) => <EditButton name={row.name} onClick={() => setEditing({ row })} /> },
  ];
  return (
    <Stack gap="md">
      <ListToolbar search={list.searchText} onSearch={list.setSearch} active={list.params.active} onActive={list.setActive} onAdd={() => setEditing({ row: null })} testId={kind} />
      <ListProblem message={toggle.problem} onClose={toggle.clearProblem} testId={kind} />
      <ListBody
        loading={query.isPending}
        error={query.error}
        onRetry={() => void query.refetch()}
        total={query.data?.total_items ?? 0}
        searching={list.params.search !== '' || list.params.active !== 'all'}
        page={list.params.page}
        onPage={list.setPage}
        testId={kind}
      >
        <ResponsiveTable rows={query.data?.data ?? []} columns={columns} rowKey={(row) => row.id} caption={t(texts.caption)} testId={`${kind}-row`} minWidth={560} />
      </ListBody>
      <EditorModal opened={editing !== null} onClose={() => setEditing(null)} title={t(editing?.row ? texts.editTitle : texts.newTitle)}>
        {editing && <SimpleForm kind={kind} row={editing.row} onDone={() => setEditing(null)} />}
      </EditorModal>
    </Stack>
  );
}

interface SimpleValues extends NameValues {
  is_active: boolean;
}

const FIELDS = ['name', 'name_ru', 'is_active'] as const;

function SimpleForm({ kind, row, onDone }: { kind: SimpleKind; row: SimpleRow | null; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useForm<SimpleValues>({
    mode: 'controlled',
    initialValues: { ...namesOf(row, row?.name ?? ''), is_active: row?.is_active ?? true },
    validate: { name: (value) => (nameProblem(value) ? t('classifications.form.required') : null) },
  });
  const toBody = (values: SimpleValues): SimpleChange => ({
    name: values.name.trim(),
    translations: translationsPayload(values, row),
    is_active: row === null || values.is_active !== row.is_active ? values.is_active : undefined,
  });
  const editor = useEditorSave({
    form,
    toBody,
    save: (change: SimpleChange) => saveSimpleRow(kind, row?.id ?? null, change),
    fields: FIELDS,
    creating: row === null,
    nameOf: (saved) => saved.name,
    onSaved: onDone,
  });
  return (
    <form onSubmit={editor.submit} noValidate data-testid={`${kind}-form`}>
      <Stack gap="md">
        <NameFields form={form} max={TEXTS[kind].max} />
        <ActiveField form={form} />
        <FormFooter problem={editor.problem} saving={editor.saving} onCancel={onDone} />
      </Stack>
    </form>
  );
}
