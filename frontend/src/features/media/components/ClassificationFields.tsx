import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Checkbox, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { captureDevicesQueryOptions, categoriesQueryOptions, mediaTypesQueryOptions } from '../../../shared/dictionaries/queries';
import { subcategoriesOf } from '../model/mediaForm';
import type { MediaForm } from './MediaForm';

const asOptions = <T,>(items: readonly T[] | undefined, value: (item: T) => number, label: (item: T) => string) =>
  (items ?? []).map((item) => ({ value: String(value(item)), label: label(item) }));

/** Media type, category (or a request for a new one), subcategory and capture device (spec §5). */
export function ClassificationFields({ form }: { form: MediaForm }) {
  const { t } = useTranslation();
  const mediaTypes = useQuery(mediaTypesQueryOptions());
  const categories = useQuery(categoriesQueryOptions());
  const devices = useQuery(captureDevicesQueryOptions());
  const { values } = form;
  const subcategories = subcategoriesOf(categories.data?.flatMap((category) => category.subcategories) ?? [], values.categoryId);

  const categoryProps = form.getInputProps('categoryId');
  const onCategory = (value: string | null) => {
    form.setFieldValue('categoryId', value);
    // A subcategory of the previous category would no longer fit (spec §5).
    if (value !== values.categoryId) form.setFieldValue('subcategoryId', null);
  };

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
        <Select
          label={t('mediaForm.mediaType')}
          placeholder={t('mediaForm.choose')}
          withAsterisk
          data={asOptions(mediaTypes.data, (item) => item.id, (item) => item.name)}
          comboboxProps={{ withinPortal: true }}
          maxDropdownHeight={250}
          data-testid="media-type"
          {...form.getInputProps('mediaTypeId')}
        />
        <Select
          label={t('mediaForm.captureDevice')}
          placeholder={t('mediaForm.optional')}
          data={asOptions(devices.data, (item) => item.camera_id, (item) => item.camera_name)}
          searchable
          clearable
          comboboxProps={{ withinPortal: true }}
          maxDropdownHeight={250}
          {...form.getInputProps('cameraId')}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
        <Select
          label={values.newCategoryMode ? t('mediaForm.categoryMeanwhile') : t('mediaForm.category')}
          placeholder={t('mediaForm.choose')}
          withAsterisk={!values.newCategoryMode}
          data={asOptions(categories.data, (item) => item.id, (item) => item.name)}
          searchable
          comboboxProps={{ withinPortal: true }}
          maxDropdownHeight={250}
          data-testid="media-category"
          {...categoryProps}
          onChange={onCategory}
        />
        <Select
          label={t('mediaForm.subcategory')}
          placeholder={values.categoryId ? t('mediaForm.optional') : t('mediaForm.subcategoryNeedsCategory')}
          data={asOptions(subcategories, (item) => item.id, (item) => item.name)}
          disabled={!values.categoryId || subcategories.length === 0}
          searchable
          clearable
          comboboxProps={{ withinPortal: true }}
          maxDropdownHeight={250}
          {...form.getInputProps('subcategoryId')}
        />
      </SimpleGrid>
      <Switch
        label={t('mediaForm.newCategoryMode')}
        checked={values.newCategoryMode}
        onChange={(event) => form.setFieldValue('newCategoryMode', event.currentTarget.checked)}
      />
      {values.newCategoryMode && (
        <TextInput
          label={t('mediaForm.newCategory')}
          description={t('mediaForm.newCategoryHint')}
          placeholder={t('mediaForm.newCategoryPlaceholder')}
          withAsterisk
          maxLength={201}
          {...form.getInputProps('newCategory')}
        />
      )}
      <Checkbox label={t('mediaForm.aiGenerated')} {...form.getInputProps('isAiGenerated', { type: 'checkbox' })} />
    </Stack>
  );
}
