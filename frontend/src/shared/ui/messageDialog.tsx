import { Button, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

interface MessageDialogOptions {
  title: ReactNode;
  message: ReactNode;
  okLabel: string;
  /** A second action beside OK (e.g. "Add another"); the dialog closes either way. */
  extra?: { label: string; onClick: () => void };
  onOk?: () => void;
  testId?: string;
}

/**
 * Spec §8: "Messages and validation errors appear in a dialog with OK". Texts arrive translated,
 * so any feature can show one without knowing the catalogue.
 */
export function showMessageDialog({ title, message, okLabel, extra, onOk, testId = 'message-dialog' }: MessageDialogOptions): string {
  let okCallback = onOk;
  const id = modals.open({
    title,
    radius: 'lg',
    centered: true,
    // Over any form or dashboard that asked for it.
    zIndex: 400,
    onClose: () => okCallback?.(),
    children: (
      <Stack gap="md" data-testid={testId}>
        {typeof message === 'string' ? <Text size="sm">{message}</Text> : message}
        <Group justify="flex-end" gap="xs">
          {extra && (
            <Button
              variant="default"
              radius="xl"
              onClick={() => {
                // The extra action replaces OK's: run it, and close without OK's callback.
                okCallback = undefined;
                modals.close(id);
                extra.onClick();
              }}
            >
              {extra.label}
            </Button>
          )}
          <Button radius="xl" onClick={() => modals.close(id)} data-autofocus>
            {okLabel}
          </Button>
        </Group>
      </Stack>
    ),
  });
  return id;
}
