import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { AdminCategoryOut, AdminSubcategoryOut, SubcategoryCreate, SubcategoryUpdate } from '../../../shared/api/generated/types.gen';
import { allCategoriesQueryOptions, saveSubcategory, subcategoriesQueryOptions } from '../api/classificationsApi';
import { useEditorSave } from '../api/useEditorSave';
import { useActiveToggle, useListState } from '../api/useListState';
import { nameProblem, namesOf, translationsPayload } from '../model/names';
import classes from './Classifications.module.css';
import { ActiveField, EditorModal, FormFooter, NameFields } from './EditorModal';
import { ActiveSwitch, EditButton, ListBody, ListProblem, ListToolbar } from './ListParts';
import { type Column, ResponsiveTable } from './ResponsiveTable';

function categoryOptions(categories: readonly AdminCategoryOut[], keep: number | null = null) {
  // A new subcategory goes only into an active category (the server refuses others): no orphans.
  return categories
    .filter((category) => category.is_active || category.id === keep)
    .map((category) => ({ value: String(category.id), label: category.name }));
}

/** Subcategories, each in its category; the list narrows to one category. */
export function SubcategoriesTab() {
  const { t } = useTranslation();
  const list = useListState();
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const categories = useQuery(allCategoriesQueryOptions());
  const query = useQuery(subcategoriesQueryOptions({ ...list.params, categoryId }));
  const [editing, setEditing] = useState<{ row: AdminSubcategoryOut | null } | null>(null);
  const toggle = useActiveToggle<AdminSubcategoryOut>((row, active) => saveSubcategory({ id: row.id, is_active: active }), (row) => row.name);
  const categoryName = (id: number) => categories.data?.find((category) => category.id === id)?.name ?? `#${id}`;
  const columns: Column<AdminSubcategoryOut>[] = [
    { key: 'name', label: t('classifications.columns.name'), primary: true, render: (row) => row.name },
    { key: 'ru', label: t('classifications.columns.nameRu'), render: (row) => <span lang="ru">{row.translations.ru ?? '—'}</span> },
    { key: 'category', label: t('classifications.columns.category'), render: (row) => categoryName(row.category_id) },
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
      <ListToolbar search={list.searchText} onSearch={list.setSearch} active={list.params.active} onActive={list.setActive} onAdd={() => setEditing({ row: null })} testId="subcategories">
        <Select
          className={classes.filter}
          label={t('classifications.subcategories.filter')}
          placeholder={t('classifications.subcategories.filterAll')}
          data={(categories.data ?? []).map((category) => ({ value: String(category.id), label: category.name }))}
          value={categoryId === null ? null : String(categoryId)}
          onChange={(value) => {
            setCategoryId(value ? Number(value) : null);
            list.firstPage();
          }}
          searchable
          clearable
          data-testid="subcategories-category"
        />
      </ListToolbar>
      <ListProblem message={toggle.problem} onClose={toggle.clearProblem} testId="subcategories" />
      <ListBody
        loading={query.isPending}
        error={query.error}
        onRetry={() => void query.refetch()}
        total={query.data?.total_items ?? 0}
        searching={list.params.search !== '' || list.params.active !== 'all' || categoryId !== null}
        page={list.params.page}
        onPage={list.setPage}
        testId="subcategories"
      >
        <ResponsiveTable rows={query.data?.data ?? []} columns={columns} rowKey={(row) => row.id} caption={t('classifications.tabs.subcategories')} testId="subcategory-row" />
      </ListBody>
      <EditorModal opened={editing !== null} onClose={() => setEditing(null)} title={t(editing?.row ? 'classifications.form.titles.editSubcategory' : 'classifications.form.titles.newSubcategory')}>
        {editing && <SubcategoryForm row={editing.row} categories={categories.data ?? []} defaultCategory={categoryId} onDone={() => setEditing(null)} />}
      </EditorModal>
    </Stack>
  );
}

interface SubcategoryValues {
  name: string;
  name_ru: string;
  category_id: string | null;
  is_active: boolean;
}

const FIELDS = ['name', 'name_ru', 'category_id', 'is_active'] as const;

function SubcategoryForm({
  row,
  categories,
  defaultCategory,
  onDone,
}: {
  row: AdminSubcategoryOut | null;
  categories: readonly AdminCategoryOut[];
  defaultCategory: number | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<SubcategoryValues>({
    mode: 'controlled',
    initialValues: {
      ...namesOf(row, row?.name ?? ''),
      category_id: row ? String(row.category_id) : defaultCategory === null ? null : String(defaultCategory),
      is_active: row?.is_active ?? true,
    },
    validate: {
      name: (value) => (nameProblem(value) ? t('classifications.form.required') : null),
      category_id: (value) => (value ? null : t('classifications.subcategories.categoryRequired')),
    },
  });
  const toBody = (values: SubcategoryValues): SubcategoryCreate | SubcategoryUpdate => {
    const translations = translationsPayload(values, row);
    const categoryId = Number(values.category_id);
    if (row === null) return { name: values.name.trim(), translations, category_id: categoryId, is_active: values.is_active };
    return {
      id: row.id,
      name: values.name.trim(),
      translations,
      category_id: categoryId !== row.category_id ? categoryId : undefined,
      is_active: values.is_active !== row.is_active ? values.is_active : undefined,
    };
  };
  const editor = useEditorSave({ form, toBody, save: saveSubcategory, fields: FIELDS, creating: row === null, nameOf: (saved) => saved.name, onSaved: onDone });
  return (
    <form onSubmit={editor.submit} noValidate data-testid="subcategory-form">
      <Stack gap="md">
        <Select
          label={t('classifications.subcategories.category')}
          placeholder={t('classifications.subcategories.categoryPlaceholder')}
          data={categoryOptions(categories, row?.category_id ?? null)}
          searchable
          withAsterisk
          allowDeselect={false}
          data-testid="form-category"
          {...form.getInputProps('category_id')}
        />
        {row !== null && row.tours > 0 && (
          <Text size="xs" c="dimmed">
            {t('classifications.subcategories.moveHint')}
          </Text>
        )}
        <NameFields form={form} />
        <ActiveField form={form} />
        <FormFooter problem={editor.problem} saving={editor.saving} onCancel={onDone} />
      </Stack>
    </form>
  );
}
