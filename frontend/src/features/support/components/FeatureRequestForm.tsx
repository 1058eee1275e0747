import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { fieldErrors } from '../../../shared/api/apiError';
import { useSendFeatureRequest } from '../api/supportApi';
import { DESCRIPTION_MAX, type FieldErrors, type ReportDraft, TITLE_MAX, validateFeatureRequest } from '../model/forms';
import { FormFailure } from './FormFailure';

/** 'Feature request' (spec §2 help tool): lands in the admins' feature requests tab. */
export function FeatureRequestForm({ onSent }: { onSent: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<ReportDraft>({ title: '', description: '' });
  const [errors, setErrors] = useState<FieldErrors<keyof ReportDraft>>({});
  const send = useSendFeatureRequest();
  const server = fieldErrors(send.error);
  const describe = (field: keyof ReportDraft, max: number) => {
    const error = errors[field];
    return error ? t(`help.${error === 'tooLong' ? 'tooLong' : 'required'}`, { max }) : server[field];
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateFeatureRequest(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    send.mutate(
      { title: draft.title.trim(), description: draft.description.trim() || null },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('help.feature.sent') });
          onSent();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="feature-request-form">
      <Stack gap="sm">
        <TextInput
          label={t('help.feature.title')}
          required
          maxLength={TITLE_MAX}
          value={draft.title}
          onChange={(event) => setDraft({ ...draft, title: event.currentTarget.value })}
          error={describe('title', TITLE_MAX)}
          data-testid="feature-title"
        />
        <Textarea
          label={t('help.feature.description')}
          autosize
          minRows={3}
          maxLength={DESCRIPTION_MAX}
          value={draft.description}
          onChange={(event) => setDraft({ ...draft, description: event.currentTarget.value })}
          error={describe('description', DESCRIPTION_MAX)}
        />
        <FormFailure error={send.error} fallback={t('help.feature.failed')} />
        <Group justify="flex-end">
          <Button type="submit" radius="xl" loading={send.isPending} data-testid="feature-send">
            {t('help.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
