import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailForward } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import { closeOwnerMail, type OwnerMailRequest } from '../../../shared/moderation/ownerMailRequest';
import { sendOwnerMail } from '../api/moderationApi';

/** The limits of GET /v2/users/send-mail. */
const SUBJECT_MAX = 200;
const TEXT_MAX = 5000;

const REASONS = ['brokenLink', 'inappropriate', 'duplicate', 'notVirtualTour', 'terms', 'other'] as const;
type Reason = (typeof REASONS)[number];

/**
 * Spec §2/§4 e-mail screen: after an admin deleted or deactivated someone's media, a message to the
 * owner, prefilled from a reason and editable, sent through GET /v2/users/send-mail; or not sent.
 */
export function OwnerMailDialog({ request }: { request: OwnerMailRequest | null }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={request !== null}
      onClose={closeOwnerMail}
      title={
        <Group gap="xs">
          <IconMailForward size={20} aria-hidden="true" />
          {t('ownerMail.title')}
        </Group>
      }
      centered
      radius="lg"
      size="lg"
      zIndex={450}
      styles={{ title: { fontWeight: 700 } }}
    >
      {/* Keyed by the request: a new deletion starts from a fresh message. */}
      {request && <OwnerMailForm key={`${request.userid}:${request.action}:${request.titles.join('|')}`} request={request} />}
    </Modal>
  );
}

function OwnerMailForm({ request }: { request: OwnerMailRequest }) {
  const { t } = useTranslation();
  const name = request.username ?? '';
  const title = request.titles.length === 1 ? (request.titles[0] ?? '') : request.titles.join('”, “');
  const action = t(`ownerMail.actions.${request.action}`);
  const compose = (reason: Reason) =>
    t('ownerMail.body', { name: name || t('moderation.unknownUser'), title, action, reason: t(`ownerMail.reasons.${reason}`) });
  const [reason, setReason] = useState<Reason>('brokenLink');
  const [subject, setSubject] = useState(() => t(`ownerMail.subjectText.${request.action}`, { title }).slice(0, SUBJECT_MAX));
  const [text, setText] = useState(() => compose('brokenLink'));
  const [edited, setEdited] = useState(false);
  const send = useMutation({
    mutationFn: () => sendOwnerMail(request.userid, subject.trim(), text.trim()),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t('ownerMail.sent') });
      closeOwnerMail();
    },
  });
  const valid = subject.trim().length > 0 && text.trim().length > 0;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) send.mutate();
      }}
      data-testid="owner-mail"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {name ? t('ownerMail.intro', { name, action }) : t('ownerMail.introUnknown', { action })}
        </Text>
        <Select
          label={t('ownerMail.reason')}
          data={REASONS.map((value) => ({ value, label: t(`ownerMail.reasons.${value}`) }))}
          value={reason}
          onChange={(value) => {
            if (!value) return;
            setReason(value as Reason);
            // The reason rewrites the message until the admin writes it themselves.
            if (!edited) setText(compose(value as Reason));
          }}
          allowDeselect={false}
          comboboxProps={{ zIndex: 460 }}
          data-testid="owner-mail-reason"
        />
        <TextInput label={t('ownerMail.subject')} value={subject} onChange={(event) => setSubject(event.currentTarget.value)} maxLength={SUBJECT_MAX} required data-testid="owner-mail-subject" />
        <Textarea
          label={t('ownerMail.message')}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setEdited(true);
          }}
          autosize
          minRows={7}
          maxRows={14}
          maxLength={TEXT_MAX}
          required
          data-testid="owner-mail-text"
        />
        {send.isError && (
          <Text size="sm" c="red" role="alert">
            {t('ownerMail.failed')}: {errorMessage(send.error, t('page.errorText'))}
          </Text>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" radius="xl" onClick={closeOwnerMail} data-testid="owner-mail-skip">
            {t('ownerMail.skip')}
          </Button>
          <Button type="submit" radius="xl" leftSection={<IconMailForward size={16} />} loading={send.isPending} disabled={!valid} data-testid="owner-mail-send">
            {t('ownerMail.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
