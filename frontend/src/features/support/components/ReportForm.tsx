import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { fieldErrors } from '../../../shared/api/apiError';
import { DESCRIPTION_MAX, type FieldErrors, type ReportDraft, TITLE_MAX } from '../model/forms';
import { FormFailure } from './FormFailure';

/** The two reports of the help tool, by their texts (help.bug.*, help.feature.*) and test ids. */
const KINDS = {
  bug: { texts: 'help.bug', testIds: 'bug', form: 'bug-report-form' },
  feature: { texts: 'help.feature', testIds: 'feature', form: 'feature-request-form' },
} as const;

interface ReportFormProps<Body> {
  kind: keyof typeof KINDS;
  validate: (draft: ReportDraft) => FieldErrors<keyof ReportDraft>;
  descriptionRequired: boolean;
  descriptionRows: number;
  send: UseMutationResult<unknown, Error, Body>;
  /** The request's body from the trimmed title and description. */
  toBody: (draft: ReportDraft) => Body;
  onSent: () => void;
  /** Shown above the title and below the description. */
  before?: ReactNode;
  after?: ReactNode;
}

/** A title and a description checked as the server checks them, sent once valid; the server's field errors show on their field. */
export function ReportForm<Body>({ kind, validate, descriptionRequired, descriptionRows, send, toBody, onSent, before, after }: ReportFormProps<Body>) {
  const { t } = useTranslation();
  const { texts, testIds, form } = KINDS[kind];
  const [draft, setDraft] = useState<ReportDraft>({ title: '', description: '' });
  const [errors, setErrors] = useState<FieldErrors<keyof ReportDraft>>({});
  const server = fieldErrors(send.error);
  const describe = (field: keyof ReportDraft, max: number) => {
    const error = errors[field];
    return error ? t(`help.${error === 'tooLong' ? 'tooLong' : 'required'}`, { max }) : server[field];
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    send.mutate(toBody({ title: draft.title.trim(), description: draft.description.trim() }), {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t(`${texts}.sent`) });
        onSent();
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate data-testid={form}>
      <Stack gap="sm">
        {before}
        <TextInput
          label={t(`${texts}.title`)}
          required
          maxLength={TITLE_MAX}
          value={draft.title}
          onChange={(event) => setDraft({ ...draft, title: event.currentTarget.value })}
          error={describe('title', TITLE_MAX)}
          data-testid={`${testIds}-title`}
        />
        <Textarea
          label={t(`${texts}.description`)}
          required={descriptionRequired}
          autosize
          minRows={descriptionRows}
          maxLength={DESCRIPTION_MAX}
          value={draft.description}
          onChange={(event) => setDraft({ ...draft, description: event.currentTarget.value })}
          error={describe('description', DESCRIPTION_MAX)}
          data-testid={`${testIds}-description`}
        />
        {after}
        <FormFailure error={send.error} fallback={t(`${texts}.failed`)} />
        <Group justify="flex-end">
          <Button type="submit" radius="xl" loading={send.isPending} data-testid={`${testIds}-send`}>
            {t('help.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
