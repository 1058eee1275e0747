import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';

import { showMessageDialog } from '../ui/messageDialog';

/** What a bulk action did: the keys it succeeded for, how many failed and the first failure's reason. */
export interface BulkResult<Key> {
  succeeded: Key[];
  failed: number;
  firstFailure: string | null;
}

/** Runs one call per selected row, all at once; a failed call does not stop the others. */
export async function runForEach<Key>(keys: readonly Key[], run: (key: Key) => Promise<unknown>): Promise<BulkResult<Key>> {
  const results = await Promise.allSettled(keys.map(run));
  const failed = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
  const reason = (failed[0]?.reason as { message?: unknown } | null)?.message;
  return {
    succeeded: keys.filter((_, index) => results[index]?.status === 'fulfilled'),
    failed: failed.length,
    firstFailure: typeof reason === 'string' && reason ? reason : null,
  };
}

export interface BulkReportTexts {
  done: (count: number) => string;
  someFailed: (count: number) => string;
  /** Shown when the first failure carried no message. */
  failed: string;
  ok: string;
}

/**
 * Tells the user how a bulk action went: a notification for the rows done, then (after `afterDone`,
 * e.g. writing to the owner) a dialog for the rows that failed.
 */
export function reportBulkResult<Key>(result: BulkResult<Key>, texts: BulkReportTexts, afterDone?: () => void) {
  const done = result.succeeded.length;
  if (done > 0) notifications.show({ color: 'brand', message: texts.done(done) });
  afterDone?.();
  if (result.failed > 0) {
    showMessageDialog({ title: texts.someFailed(result.failed), message: result.firstFailure ?? texts.failed, okLabel: texts.ok });
  }
}

export interface ConfirmDeleteOptions {
  title: string;
  text: string;
  confirm: string;
  cancel: string;
  confirmTestId: string;
  onConfirm: () => void;
}

/** The manage dashboards' "delete these?" question, above their full-screen dialog. */
export function confirmBulkDelete({ title, text, confirm, cancel, confirmTestId, onConfirm }: ConfirmDeleteOptions) {
  modals.openConfirmModal({
    title,
    children: <Text size="sm">{text}</Text>,
    centered: true,
    radius: 'lg',
    zIndex: 400,
    labels: { confirm, cancel },
    confirmProps: { color: 'red', 'data-testid': confirmTestId },
    onConfirm,
  });
}
