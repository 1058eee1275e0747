import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { REASON_MAX, REASON_MIN } from '../api/decisions';

interface RejectDialogProps {
  /** How many items the reason is for; 0: closed. */
  count: number;
  busy: boolean;
  onClose: () => void;
  onReject: (reason: string) => void;
}

/** A rejection always carries its reason (3..1000 characters): it is mailed to each owner. */
export function RejectDialog({ count, busy, onClose, onReject }: RejectDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={count > 0}
      onClose={onClose}
      title={t('moderation.rejectDialog.title', { count })}
      centered
      radius="lg"
      size="lg"
      zIndex={400}
      styles={{ title: { fontWeight: 700 } }}
    >
      {/* Mounted per opening, so every rejection starts from an empty reason. */}
      {count > 0 && <RejectForm count={count} busy={busy} onCancel={onClose} onReject={onReject} />}
    </Modal>
  );
}

function RejectForm({ count, busy, onCancel, onReject }: { count: number; busy: boolean; onCancel: () => void; onReject: (reason: string) => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const trimmed = reason.trim();
  const error =
    trimmed.length < REASON_MIN
      ? t('moderation.rejectDialog.tooShort', { min: REASON_MIN })
      : trimmed.length > REASON_MAX
        ? t('moderation.rejectDialog.tooLong', { max: REASON_MAX })
        : null;
  const submit = () => {
    setTried(true);
    if (error === null) onReject(trimmed);
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      data-testid="reject-dialog"
    >
      <Stack gap="md">
        <Textarea
          label={t('moderation.rejectDialog.reason')}
          description={t('moderation.rejectDialog.reasonHint')}
          placeholder={t('moderation.rejectDialog.placeholder')}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Ctrl/Cmd+Enter sends from the text area, as in a mail client.
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              submit();
            }
          }}
          error={tried ? error : null}
          autosize
          minRows={4}
          maxRows={10}
          maxLength={REASON_MAX}
          withAsterisk
          data-autofocus
          data-testid="reject-reason"
        />
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {trimmed.length} / {REASON_MAX}
          </Text>
          <Group gap="xs">
            <Button variant="default" radius="xl" onClick={onCancel}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="red" radius="xl" loading={busy} data-testid="reject-submit">
              {t('moderation.rejectDialog.submit')}
              {count > 1 ? ` (${count})` : ''}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
