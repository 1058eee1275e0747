import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Badge, Button, FileButton, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { AdminCategoryOut, CategoryCreate, CategoryUpdate, ImageSource } from '../../../shared/api/generated/types.gen';
import { categoriesQueryOptions, saveCategory, uploadCategoryIcon } from '../api/classificationsApi';
import { useEditorSave } from '../api/useEditorSave';
import { useActiveToggle, useListState } from '../api/useListState';
import { nameProblem, namesOf, translationsPayload } from '../model/names';
import classes from './Classifications.module.css';
import { ActiveField, EditorModal, FormFooter, NameFields } from './EditorModal';
import { ActiveSwitch, EditButton, ListBody, ListProblem, ListToolbar } from './ListParts';
import { type Column, ResponsiveTable } from './ResponsiveTable';

type Editing = { row: AdminCategoryOut | null } | null;

/** Categories with their icons, names in English and Russian, tour counts and active switches. */
export function CategoriesTab() {
  const { t } = useTranslation();
  const list = useListState();
  const query = useQuery(categoriesQueryOptions(list.params));
  const [editing, setEditing] = useState<Editing>(null);
  const toggle = useActiveToggle<AdminCategoryOut>((row, active) => saveCategory({ id: row.id, is_active: active }), (row) => row.name);
  const columns: Column<AdminCategoryOut>[] = [
    { key: 'icon', label: t('classifications.columns.icon'), render: (row) => <CategoryIconView category={row} /> },
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
      <ListToolbar search={list.searchText} onSearch={list.setSearch} active={list.params.active} onActive={list.setActive} onAdd={() => setEditing({ row: null })} testId="categories" />
      <ListProblem message={toggle.problem} onClose={toggle.clearProblem} testId="categories" />
      <ListBody
        loading={query.isPending}
        error={query.error}
        onRetry={() => void query.refetch()}
        total={query.data?.total_items ?? 0}
        searching={list.params.search !== '' || list.params.active !== 'all'}
        page={list.params.page}
        onPage={list.setPage}
        testId="categories"
      >
        <ResponsiveTable rows={query.data?.data ?? []} columns={columns} rowKey={(row) => row.id} caption={t('classifications.tabs.categories')} testId="category-row" />
      </ListBody>
      <EditorModal opened={editing !== null} onClose={() => setEditing(null)} title={t(editing?.row ? 'classifications.form.titles.editCategory' : 'classifications.form.titles.newCategory')}>
        {editing && <CategoryForm row={editing.row} onDone={() => setEditing(null)} />}
      </EditorModal>
    </Stack>
  );
}

/** An uploaded icon as a thumbnail; an icon the app draws by its name; else nothing. */
export function CategoryIconView({ category }: { category: Pick<AdminCategoryOut, 'name' | 'icon_path' | 'image_search' | 'source_image_search'> }) {
  const { t } = useTranslation();
  if (category.icon_path) {
    return <img src={category.icon_path} alt={t('classifications.categories.iconOf', { name: category.name })} className={classes.icon} data-testid="category-icon" />;
  }
  if (category.image_search) {
    return (
      <Badge variant="light" color="gray" radius="sm" tt="none" title={t('classifications.categories.localIcon', { name: category.image_search })}>
        {category.image_search}
      </Badge>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      {t('classifications.categories.noIcon')}
    </Text>
  );
}

interface CategoryValues {
  name: string;
  name_ru: string;
  is_active: boolean;
  position: number | string;
  image_search: string;
  source_image_search: ImageSource | null;
  icon_path: string | null;
}

const FIELDS = ['name', 'name_ru', 'is_active', 'position', 'image_search'] as const;

function CategoryForm({ row, onDone }: { row: AdminCategoryOut | null; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useForm<CategoryValues>({
    mode: 'controlled',
    initialValues: {
      ...namesOf(row, row?.name ?? ''),
      is_active: row?.is_active ?? true,
      position: row?.position ?? '',
      image_search: row?.image_search ?? '',
      source_image_search: (row?.source_image_search as ImageSource | null | undefined) ?? null,
      icon_path: row?.icon_path ?? null,
    },
    validate: { name: (value) => (nameProblem(value) ? t('classifications.form.required') : null) },
  });
  const [uploading, setUploading] = useState(false);
  const toBody = (values: CategoryValues): CategoryCreate | CategoryUpdate => {
    const translations = translationsPayload(values, row);
    const position = typeof values.position === 'number' ? values.position : undefined;
    const iconChanged = values.image_search !== (row?.image_search ?? '');
    const icon = iconChanged ? { image_search: values.image_search, source_image_search: values.image_search ? (values.source_image_search ?? undefined) : undefined } : {};
    if (row === null) {
      return { name: values.name.trim(), translations, position, is_active: values.is_active, ...(values.image_search ? icon : {}) };
    }
    return {
      id: row.id,
      name: values.name.trim(),
      translations,
      position: position !== row.position ? position : undefined,
      is_active: values.is_active !== row.is_active ? values.is_active : undefined,
      ...icon,
    };
  };
  const editor = useEditorSave({ form, toBody, save: saveCategory, fields: FIELDS, creating: row === null, nameOf: (saved) => saved.name, onSaved: onDone });

  const upload = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    form.setFieldError('image_search', null);
    const outcome = await uploadCategoryIcon(file);
    setUploading(false);
    if (outcome.kind === 'saved') {
      form.setValues({ image_search: outcome.data.image, source_image_search: 'cloud', icon_path: outcome.data.path });
      return;
    }
    const message = (outcome.kind === 'refused' ? (outcome.fields.image ?? outcome.message) : outcome.message) ?? t('classifications.categories.iconFailed');
    form.setFieldError('image_search', message);
  };

  const values = form.values;
  const iconError = form.errors.image_search;
  return (
    <form onSubmit={editor.submit} noValidate data-testid="category-form">
      <Stack gap="md">
        <NameFields form={form} />
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {t('classifications.categories.icon')}
          </Text>
          <Group gap="md" align="center" wrap="wrap">
            {values.source_image_search === 'cloud' && values.icon_path ? (
              <img src={values.icon_path} alt={t('classifications.categories.iconOf', { name: values.name })} className={classes.iconPreview} data-testid="icon-preview" />
            ) : (
              <CategoryIconView category={{ name: values.name, icon_path: null, image_search: values.image_search || null, source_image_search: values.source_image_search }} />
            )}
            <FileButton onChange={(file) => void upload(file)} accept="image/png,image/jpeg,image/webp">
              {(props) => (
                <Button {...props} variant="light" leftSection={<IconPhotoUp size={16} aria-hidden="true" />} loading={uploading} data-testid="icon-upload">
                  {values.image_search ? t('classifications.categories.replaceIcon') : t('classifications.categories.uploadIcon')}
                </Button>
              )}
            </FileButton>
            {values.image_search && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden="true" />}
                onClick={() => form.setValues({ image_search: '', source_image_search: null, icon_path: null })}
              >
                {t('classifications.categories.removeIcon')}
              </Button>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t('classifications.categories.iconHint')}
          </Text>
          {iconError && (
            <Text size="sm" c="red.8" role="alert" data-testid="icon-error">
              {iconError}
            </Text>
          )}
        </Stack>
        <NumberInput label={t('classifications.categories.position')} min={0} allowDecimal={false} allowNegative={false} {...form.getInputProps('position')} />
        <ActiveField form={form} />
        {row !== null && row.tours > 0 && (
          <Text size="xs" c="dimmed">
            {t('classifications.categories.inUseHint')}
          </Text>
        )}
        <FormFooter problem={editor.problem} saving={editor.saving} onCancel={onDone} />
      </Stack>
    </form>
  );
}
