import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { fieldErrors } from '../../../shared/api/apiError';
import { useCurrentUser } from '../../../shared/auth/currentUser';
import { useContactSupport } from '../api/supportApi';
import { type ContactDraft, EMAIL_MAX, type FieldError, MESSAGE_MAX, MESSAGE_MIN_LETTERS, NAME_MAX, SUBJECT_MAX, validateContact } from '../model/forms';
import { FormFailure } from './FormFailure';

/** 'Support' (spec §2 help tool): a message mailed to the support team, answered by e-mail. */
export function ContactSupportForm({ onSent }: { onSent: () => void }) {
  const { t } = useTranslation();
  const user = useCurrentUser().data;
  const [draft, setDraft] = useState<ContactDraft>(() => ({
    name: user ? `${user.first_name} ${user.last_name}`.trim() : '',
    email: user?.email ?? '',
    subject: '',
    message: '',
  }));
  const [errors, setErrors] = useState<Partial<Record<keyof ContactDraft, FieldError>>>({});
  const send = useContactSupport();
  const server = fieldErrors(send.error);
  const describe = (field: keyof ContactDraft, max: number) => {
    const error = errors[field];
    if (error === 'minLetters') return t('help.contact.minLetters', { min: MESSAGE_MIN_LETTERS });
    return error ? t(`help.${error}`, { max }) : server[field];
  };
  const field = (name: keyof ContactDraft) => ({
    value: draft[name],
    onChange: (event: { currentTarget: { value: string } }) => setDraft({ ...draft, [name]: event.currentTarget.value }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateContact(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    send.mutate(
      { name: draft.name.trim(), email: draft.email.trim(), subject: draft.subject.trim() || null, message: draft.message.trim() },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('help.contact.sent') });
          onSent();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="contact-support-form">
      <Stack gap="sm">
        <TextInput label={t('help.contact.name')} required maxLength={NAME_MAX} autoComplete="name" {...field('name')} error={describe('name', NAME_MAX)} />
        <TextInput label={t('help.contact.email')} required type="email" maxLength={EMAIL_MAX} autoComplete="email" {...field('email')} error={describe('email', EMAIL_MAX)} />
        <TextInput label={t('help.contact.subject')} maxLength={SUBJECT_MAX} {...field('subject')} error={describe('subject', SUBJECT_MAX)} />
        <Textarea
          label={t('help.contact.message')}
          description={t('help.contact.minLetters', { min: MESSAGE_MIN_LETTERS })}
          required
          autosize
          minRows={4}
          maxLength={MESSAGE_MAX}
          {...field('message')}
          error={describe('message', MESSAGE_MAX)}
          data-testid="contact-message"
        />
        <FormFailure error={send.error} fallback={t('help.contact.failed')} />
        <Group justify="flex-end">
          <Button type="submit" radius="xl" loading={send.isPending} data-testid="contact-send">
            {t('help.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
