import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useCurrentUser } from '../../../shared/auth/currentUser';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { sendCreatorMessage } from '../api/creatorSave';
import { type ContactValues, MESSAGE_MAX, MESSAGE_MIN_LETTERS, validateContact } from '../model/contactForm';
import type { CreatorProfile } from '../model/creatorProfile';

/**
 * The contact form (POST creator-message): the message is mailed to the creator, who answers the
 * address given. The server limits how often one sender writes (429) and says why a message is refused.
 */
export function ContactDialog({ profile, opened, onClose }: { profile: CreatorProfile; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const user = useCurrentUser();
  const account = user.data;
  const form = useForm<ContactValues>({
    mode: 'controlled',
    initialValues: {
      name: account ? [account.first_name, account.last_name].filter(Boolean).join(' ') : '',
      email: account?.email ?? '',
      subject: '',
      message: '',
    },
    validate: (values) =>
      Object.fromEntries(Object.entries(validateContact(values)).map(([field, key]) => [field, t(key, { min: MESSAGE_MIN_LETTERS })])),
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const send = async (values: ContactValues) => {
    setSending(true);
    setProblem(null);
    try {
      const answer = await sendCreatorMessage({
        creator_id: profile.id,
        name: values.name.trim(),
        email: values.email.trim(),
        subject: values.subject.trim() || null,
        message: values.message.trim(),
      });
      const body = (answer.body ?? {}) as { message?: unknown; fields?: Record<string, string> };
      if (answer.status === 200) {
        notifications.show({ color: 'teal', message: typeof body.message === 'string' ? body.message : t('creatorContact.sent') });
        form.reset();
        onClose();
        return;
      }
      if (body.fields) form.setErrors(body.fields);
      setProblem(typeof body.message === 'string' ? body.message : t('creatorForm.failed'));
    } catch {
      setProblem(t('creatorForm.failed'));
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('creatorContact.title', { name: profile.creator_name })}
      size="lg"
      radius={mobile ? 0 : 'lg'}
      fullScreen={mobile}
      padding={mobile ? 'md' : 'xl'}
      zIndex={250}
      styles={{ title: { fontWeight: 700, fontSize: '1.2rem' } }}
    >
      <form onSubmit={form.onSubmit((values) => void send(values))} noValidate data-testid="creator-contact-form">
        <Stack gap="sm">
          {problem && (
            <Alert color="red" variant="light" radius="md" role="alert">
              {problem}
            </Alert>
          )}
          <Group grow align="flex-start" wrap="wrap">
            <TextInput label={t('creatorContact.name')} withAsterisk maxLength={100} autoComplete="name" miw={200} {...form.getInputProps('name')} data-testid="contact-name" />
            <TextInput label={t('creatorContact.email')} withAsterisk type="email" maxLength={320} autoComplete="email" miw={200} {...form.getInputProps('email')} data-testid="contact-email" />
          </Group>
          <TextInput label={t('creatorContact.subject')} maxLength={150} {...form.getInputProps('subject')} data-testid="contact-subject" />
          <Textarea
            label={t('creatorContact.message')}
            description={t('creatorContact.messageHint', { min: MESSAGE_MIN_LETTERS })}
            withAsterisk
            autosize
            minRows={4}
            maxRows={10}
            maxLength={MESSAGE_MAX}
            {...form.getInputProps('message')}
            data-testid="contact-message"
          />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" radius="xl" onClick={onClose} disabled={sending}>
              {t('creatorForm.cancel')}
            </Button>
            <Button type="submit" radius="xl" loading={sending} data-testid="contact-send">
              {t('creatorContact.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
