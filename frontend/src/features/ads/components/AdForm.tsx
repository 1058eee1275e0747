import '../../../shared/i18n/adsTexts';

import { Alert, Button, Group, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { type Ref, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useSession } from '../../../shared/auth/session';
import { showMessageDialog } from '../../../shared/ui/messageDialog';
import { saveAd, type AdSaveRequest } from '../api/adsApi';
import {
  adFormChanged,
  adFormPayload,
  adToFormValues,
  type AdFormValues,
  DESCRIPTION_MAX,
  EMPTY_AD_FORM,
  LINK_MAX,
  MAX_AD_TAGS,
  TITLE_MAX,
  validateAdForm,
} from '../model/adForm';
import { adFieldErrors, adSaveOutcome } from '../model/saveOutcome';
import type { AdFormRequest } from './AdFormDialog';
import { AdLinkField, useLinkCheck } from './AdLinkField';
import { AdOwnerField } from './AdOwnerField';
import { AdPreviewImageField } from './AdPreviewImageField';
import { AdTagsField } from './AdTagsField';
import classes from './ManageAds.module.css';

export type AdFormType = UseFormReturnType<AdFormValues>;

export interface AdFormHandle {
  requestClose: () => void;
}

interface AdFormProps {
  request: AdFormRequest;
  /** Close the form. */
  onDone: () => void;
  /** An ad was saved: the list refreshes. */
  onSaved: () => void;
  ref?: Ref<AdFormHandle>;
}

/** The limit each field's message names. */
const MAX_OF: Partial<Record<keyof AdFormValues, number>> = {
  link: LINK_MAX,
  title: TITLE_MAX,
  description: DESCRIPTION_MAX,
  tags: MAX_AD_TAGS,
};

function initialValues(request: AdFormRequest): AdFormValues {
  return request.mode === 'edit' ? adToFormValues(request.ad) : { ...EMPTY_AD_FORM, onBehalfOf: request.onBehalfOf };
}

/** Spec §2/§7 add/edit ad form: link (checked as typed), title, description, picture, tags, draft or active. */
export function AdForm({ request, onDone, onSaved, ref }: AdFormProps) {
  const { t } = useTranslation();
  const isAdmin = useSession().role === 'admin';
  const editedAd = request.mode === 'edit' ? request.ad : null;
  const linkTakenRef = useRef(false);
  const [saving, setSaving] = useState(false);

  const form = useForm<AdFormValues>({
    mode: 'controlled',
    initialValues: initialValues(request),
    validate: (values) => {
      const errors = validateAdForm(values, { linkTaken: linkTakenRef.current });
      return Object.fromEntries(
        Object.entries(errors).map(([field, code]) => [field, t(`adForm.errors.${code}`, { max: MAX_OF[field as keyof AdFormValues] })]),
      );
    },
  });
  const linkCheck = useLinkCheck(form.values.link, editedAd);
  linkTakenRef.current = linkCheck === 'taken';

  const requestClose = () => {
    if (!adFormChanged(form.values, form.getInitialValues())) {
      onDone();
      return;
    }
    modals.openConfirmModal({
      title: t('adForm.exitTitle'),
      children: t('adForm.exitQuestion'),
      centered: true,
      radius: 'lg',
      zIndex: 400,
      labels: { confirm: t('adForm.exitConfirm'), cancel: t('adForm.exitCancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-close-ad-form' },
      onConfirm: onDone,
    });
  };
  useImperativeHandle(ref, () => ({ requestClose }));

  const submit = async (values: AdFormValues) => {
    const body = adFormPayload(values);
    const saveRequest: AdSaveRequest =
      request.mode === 'edit' ? { mode: 'edit', adId: request.ad.id, body } : { mode: 'add', body, onBehalfOf: isAdmin ? values.onBehalfOf : null };
    setSaving(true);
    try {
      const answer = await saveAd(saveRequest);
      showOutcome(answer.status, answer.body);
    } catch {
      showMessageDialog({ title: t('adForm.failedTitle'), message: t('adForm.failed'), okLabel: t('common.ok') });
    } finally {
      setSaving(false);
    }
  };

  const showOutcome = (status: number, body: unknown) => {
    const outcome = adSaveOutcome(status, body);
    if (outcome.kind !== 'failed') {
      notifications.show({ color: outcome.kind === 'published' ? 'teal' : 'brand', message: t(`adForm.saved.${outcome.kind}`) });
      onSaved();
      onDone();
      return;
    }
    const fieldErrors = adFieldErrors(outcome.fields);
    form.setErrors(fieldErrors);
    // The fields say why in place; a failure no field explains is said in a dialog.
    if (Object.keys(fieldErrors).length === 0) {
      showMessageDialog({ title: t('adForm.failedTitle'), message: outcome.message ?? t('adForm.failed'), okLabel: t('common.ok') });
    }
  };

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate data-testid="ad-form">
      <Stack gap="md">
        <AdLinkField form={form} check={linkCheck} />
        <TextInput label={t('adForm.titleLabel')} withAsterisk maxLength={TITLE_MAX} {...form.getInputProps('title')} data-testid="ad-title" />
        <Textarea
          label={t('adForm.description')}
          autosize
          minRows={3}
          maxRows={8}
          maxLength={DESCRIPTION_MAX}
          description={t('adForm.descriptionCount', { count: form.values.description.length, max: DESCRIPTION_MAX })}
          {...form.getInputProps('description')}
        />
        <AdPreviewImageField form={form} />
        <AdTagsField form={form} />
        <Switch label={t('adForm.active')} description={t('adForm.activeHint')} {...form.getInputProps('isActive', { type: 'checkbox' })} />
        {isAdmin && request.mode === 'add' && <AdOwnerField form={form} />}
        {!isAdmin && request.mode === 'add' && (
          <Alert variant="light" color="gray" radius="md" icon={<IconInfoCircle size={18} />}>
            {t('adForm.approvalNote')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm" className={classes.footer}>
          <Button variant="default" radius="xl" onClick={requestClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" radius="xl" loading={saving} data-testid="ad-form-submit">
            {request.mode === 'add' ? t('adForm.submitAdd') : t('adForm.submitEdit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
