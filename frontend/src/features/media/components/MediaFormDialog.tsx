import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Center, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { closeMediaForm, useMediaFormRequest } from '../../../shared/media/mediaFormRequest';
import { FormDialog } from '../../../shared/ui/FormDialog';
import { tourForEditQueryOptions } from '../api/mediaApi';
import { tourToFormValues } from '../model/mediaPayload';
import type { MediaFormHandle } from './MediaForm';

// The form brings the pin picker's map with it only when opened.
const MediaForm = lazy(async () => ({ default: (await import('./MediaForm')).MediaForm }));

/** The add/edit media form's modal; loaded when first opened (MediaFormHost). */
export function MediaFormDialog() {
  const { t } = useTranslation();
  const request = useMediaFormRequest();
  const formRef = useRef<MediaFormHandle>(null);

  const editGuid = request?.mode === 'edit' ? request.guid : null;
  const tour = useQuery({ ...tourForEditQueryOptions(editGuid ?? ''), enabled: editGuid !== null });
  const title = request?.mode === 'edit' ? t('mediaForm.editTitle') : t('mediaForm.addTitle');

  // Closing asks first when something was typed (spec §4 exit dialog); the form knows.
  const requestClose = () => {
    if (formRef.current) formRef.current.requestClose();
    else closeMediaForm();
  };

  return (
    <FormDialog opened={request !== null} onClose={requestClose} title={title} size="xl">
      <Suspense fallback={<FormLoading />}>
        {request?.mode === 'add' && <MediaForm ref={formRef} mode="add" onDone={closeMediaForm} />}
        {request?.mode === 'edit' && tour.isPending && <FormLoading />}
        {request?.mode === 'edit' && tour.isError && (
          <Text c="red" role="alert">
            {t('mediaForm.loadFailed')}
          </Text>
        )}
        {request?.mode === 'edit' && tour.data && (
          <MediaForm
            key={tour.data.guid}
            ref={formRef}
            mode="edit"
            tour={tour.data}
            initial={tourToFormValues(tour.data)}
            onDone={closeMediaForm}
          />
        )}
      </Suspense>
    </FormDialog>
  );
}

function FormLoading() {
  const { t } = useTranslation();
  return (
    <Center mih={240}>
      <Loader aria-label={t('page.loading')} />
    </Center>
  );
}
