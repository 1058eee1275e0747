import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import { type AdminUser, useSendUserMessage } from '../api/usersAdminApi';
import { MESSAGE_TEXT_MAX, MESSAGE_TITLE_MAX, type MessageError, type MessageErrors, validateMessage } from '../model/forms';
import { displayName } from './displayName';

/** An admin's message to one account (POST /v2/notifications/user-message): an in-app notification. */
export function MessageDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation();
  const name = displayName(user);
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<MessageErrors>({});
  const send = useSendUserMessage();
  const server = fieldErrors(send.error);

  const describe = (error: MessageError | undefined, max: number) =>
    error === 'required' ? t('usersAdmin.message.required') : error === 'tooLong' ? t('usersAdmin.message.tooLong', { max }) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateMessage(title, message);
    setErrors(found);
    if (found.title || found.message) return;
    send.mutate(
      { userid: user.userid, title: title.trim(), message: message.trim() },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('usersAdmin.message.sent') });
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('usersAdmin.message.title', { name })} centered radius="lg" size="lg" attributes={{ content: { 'data-testid': 'message-dialog' } }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('usersAdmin.message.intro')}
          </Text>
          <TextInput
            label={t('usersAdmin.message.subject')}
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={describe(errors.title, MESSAGE_TITLE_MAX) ?? server.title}
            required
            data-autofocus
            data-testid="message-title"
          />
          <Textarea
            label={t('usersAdmin.message.text')}
            value={message}
            onChange={(event) => setMessage(event.currentTarget.value)}
            error={describe(errors.message, MESSAGE_TEXT_MAX) ?? server.message}
            description={t('usersAdmin.message.counter', { count: message.trim().length, max: MESSAGE_TEXT_MAX })}
            required
            autosize
            minRows={4}
            maxRows={12}
            data-testid="message-text"
          />
          {send.isError && Object.keys(server).length === 0 && (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('usersAdmin.message.failed')} data-testid="message-error">
              {errorMessage(send.error, t('page.errorText'))}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={send.isPending} data-testid="message-send">
              {t('usersAdmin.message.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
