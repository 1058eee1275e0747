import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Divider, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type Ref, useImperativeHandle, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { TourOut } from '../../../shared/api/generated/types.gen';
import { useSession } from '../../../shared/auth/session';
import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';
import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';
import { showMessageDialog } from '../../../shared/ui/messageDialog';
import { allowedVendorsQueryOptions } from '../../../shared/vendors/allowedVendors';
import { saveMedia } from '../api/mediaApi';
import {
  DESCRIPTION_MAX_LENGTH,
  EMPTY_MEDIA_FORM,
  formChanged,
  MAX_TAGS,
  type MediaFormContext,
  type MediaFormValues,
  validateMediaForm,
} from '../model/mediaForm';
import { formValuesToPayload } from '../model/mediaPayload';
import { formFieldErrors, saveOutcome } from '../model/saveOutcome';
import { ClassificationFields } from './ClassificationFields';
import { HostSection } from './HostSection';
import { LinkField } from './LinkField';
import { LocationFields } from './LocationFields';
import classes from './MediaForm.module.css';
import { type PickedLocation, PinLocationPicker } from './PinLocationPicker';
import { PreviewImageField } from './PreviewImageField';
import { setFields } from './setFields';
import { StaffFields } from './StaffFields';
import { TagsField } from './TagsField';
import { useMediaLookup } from './useMediaLookup';
import { VisibilityField } from './VisibilityField';

export type MediaForm = UseFormReturnType<MediaFormValues>;

export interface MediaFormHandle {
  requestClose: () => void;
}

interface MediaFormProps {
  mode: 'add' | 'edit';
  tour?: TourOut;
  initial?: MediaFormValues;
  onDone: () => void;
  ref?: Ref<MediaFormHandle>;
}

/** Spec §2/§4/§5 add/edit media form: host first, then the link, whose lookup fills the rest. */
export function MediaForm({ mode, tour, initial = EMPTY_MEDIA_FORM, onDone, ref }: MediaFormProps) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const isAdmin = session.role === 'admin';
  const isContentManager = isAdmin || (session.claims?.roles ?? []).some((role) => role.toUpperCase() === 'CM');
  // The public hosts and the user's own custom hosts (spec §2 custom provider request).
  const vendors = useQuery(allowedVendorsQueryOptions());
  const contextRef = useRef<MediaFormContext>({ mode, isAdmin, hostNeedsPicture: false, lookupFailed: false, linkTaken: false });

  const form = useForm<MediaFormValues>({
    mode: 'controlled',
    initialValues: initial,
    validate: (values) => {
      const errors = validateMediaForm(values, contextRef.current);
      return Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, t(key, { max: DESCRIPTION_MAX_LENGTH })]));
    },
  });

  const vendor = vendors.data?.find((item) => String(item.vendor_id) === form.values.vendorId) ?? null;
  const lookup = useMediaLookup(form, vendor, mode);
  contextRef.current = {
    mode,
    isAdmin,
    hostNeedsPicture: vendor?.preview_picture_required ?? false,
    lookupFailed: lookup.failed,
    linkTaken: lookup.linkTaken,
  };

  const [saving, setSaving] = useState(false);
  const [picking, setPicking] = useState(false);

  const requestClose = () => {
    if (!formChanged(form.values, form.getInitialValues())) {
      onDone();
      return;
    }
    modals.openConfirmModal({
      title: t('mediaForm.exitTitle'),
      children: t('mediaForm.exitQuestion'),
      centered: true,
      radius: 'lg',
      zIndex: 400,
      labels: { confirm: t('mediaForm.exitConfirm'), cancel: t('mediaForm.exitCancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-close-media-form' },
      onConfirm: onDone,
    });
  };
  useImperativeHandle(ref, () => ({ requestClose }));

  const submit = async (values: MediaFormValues) => {
    setSaving(true);
    try {
      const payload = formValuesToPayload(values, { mode, guid: tour?.guid ?? null, isContentManager });
      const answer = await saveMedia(mode, payload, isAdmin && mode === 'add' ? values.onBehalfOf : null);
      handleAnswer(answer.status, answer.body);
    } catch {
      showMessageDialog({ title: t('mediaForm.failedTitle'), message: t('mediaForm.failed'), okLabel: t('common.ok') });
    } finally {
      setSaving(false);
    }
  };

  const handleAnswer = (status: number, body: unknown) => {
    const outcome = saveOutcome(status, body, mode);
    // Hashtags past the limit of 10 tags stay text: say which, after the save's own message.
    const leftOut =
      'hashtagsLeftOut' in outcome && outcome.hashtagsLeftOut.length > 0
        ? ` ${t('mediaForm.hashtagsLeftOut', { max: MAX_TAGS, hashtags: outcome.hashtagsLeftOut.map((word) => `#${word}`).join(', ') })}`
        : '';
    if (outcome.kind === 'created' || outcome.kind === 'pending') {
      void queryClient.invalidateQueries({ queryKey: tourQueryKeys.all });
      void queryClient.invalidateQueries({ queryKey: discoveryQueryKeys.all });
    }
    switch (outcome.kind) {
      case 'created':
        if (outcome.clearForm) {
          form.setInitialValues(EMPTY_MEDIA_FORM);
          form.reset();
          lookup.reset();
          showMessageDialog({
            title: t('mediaForm.addedTitle'),
            message: (outcome.message ?? t('mediaForm.added')) + leftOut,
            okLabel: t('common.ok'),
            onOk: onDone,
            extra: { label: t('mediaForm.addAnother'), onClick: () => undefined },
            testId: 'media-saved-dialog',
          });
        } else {
          form.resetDirty();
          showMessageDialog({ title: t('mediaForm.savedTitle'), message: (outcome.message ?? t('mediaForm.saved')) + leftOut, okLabel: t('common.ok'), testId: 'media-saved-dialog' });
          onDone();
        }
        return;
      case 'pending':
        showMessageDialog({ title: t('mediaForm.savedTitle'), message: t('mediaForm.pendingEdit') + leftOut, okLabel: t('common.ok'), testId: 'media-saved-dialog' });
        onDone();
        return;
      case 'duplicate':
        showMessageDialog({ title: t('mediaForm.failedTitle'), message: outcome.message, okLabel: t('common.ok') });
        return;
      case 'pickLocation':
        notifications.show({ color: 'yellow', message: t('mediaForm.addressNotFound') });
        setPicking(true);
        return;
      case 'failed':
        form.setErrors(formFieldErrors(outcome.fields));
        showMessageDialog({
          title: t('mediaForm.failedTitle'),
          message: outcome.message ?? t('mediaForm.failed'),
          okLabel: t('common.ok'),
        });
    }
  };

  const onPicked = (picked: PickedLocation) => {
    setPicking(false);
    setFields(form, { coordinate: `${picked.lat},${picked.lng}`, addressStr: picked.addressStr, addressId: picked.addressId, hasAddress: true });
    // The save stopped only for the place: carry on with it.
    void form.onSubmit((values) => void submit(values))();
  };

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate data-testid="media-form" className={classes.form}>
      <Stack gap="lg">
        <HostSection form={form} vendors={vendors.data ?? []} vendor={vendor} locked={mode === 'edit'} ownHost={lookup.ownHost} />
        <LinkField form={form} vendor={vendor} lookup={lookup} mode={mode} />
        <PreviewImageField form={form} required={contextRef.current.hostNeedsPicture || lookup.failed} isAdmin={isAdmin} />
        <Divider />
        <Stack gap="sm">
          <TextInput label={t('mediaForm.titleLabel')} withAsterisk maxLength={255} {...form.getInputProps('title')} />
          <Textarea
            label={t('mediaForm.description')}
            autosize
            minRows={3}
            maxRows={10}
            description={t('mediaForm.descriptionCount', { count: form.values.description.length, max: DESCRIPTION_MAX_LENGTH })}
            {...form.getInputProps('description')}
          />
          <TextInput
            label={t('mediaForm.vtWebsite')}
            description={t('mediaForm.vtWebsiteHint')}
            placeholder="https://"
            type="url"
            {...form.getInputProps('vtWebsite')}
          />
        </Stack>
        <ClassificationFields form={form} />
        <TagsField form={form} />
        <LocationFields form={form} mode={mode} onPickOnMap={() => setPicking(true)} />
        <StaffFields form={form} isAdmin={isAdmin && mode === 'add'} isContentManager={isContentManager} />
        <VisibilityField form={form} />
        {mode === 'add' && (
          <Alert variant="light" color="gray" radius="md" icon={<IconInfoCircle size={18} />}>
            {t('mediaForm.approvalNote')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm" className={classes.footer}>
          <Button variant="default" radius="xl" onClick={requestClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" radius="xl" loading={saving} data-testid="media-form-submit">
            {mode === 'add' ? t('mediaForm.submitAdd') : t('mediaForm.submitEdit')}
          </Button>
        </Group>
      </Stack>
      <PinLocationPicker opened={picking} onClose={() => setPicking(false)} onPicked={onPicked} near={form.values.addressId} />
    </form>
  );
}
