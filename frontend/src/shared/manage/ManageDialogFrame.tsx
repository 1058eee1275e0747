import { Modal } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';

import { useFormDialogOpen } from '../ui/FormDialog';
import { PartLoading } from '../ui/PartLoading';

interface ManageDialogFrameProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** Usually a lazy dashboard: mounted only while open, with a loader until its code arrives. */
  children: ReactNode;
}

/** The full-screen frame of the manage dialogs (Manage Media, Manage Ads). */
export function ManageDialogFrame({ opened, onClose, title, children }: ManageDialogFrameProps) {
  // Escape in the add/edit form above closes (or asks to close) the form, not the dashboard too.
  const formOpen = useFormDialogOpen();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeOnEscape={!formOpen}
      title={title}
      fullScreen
      radius={0}
      styles={{
        title: { fontWeight: 750, fontSize: '1.35rem' },
        // A wide screen keeps the dashboard at a readable width, title and close button included.
        header: { maxWidth: 1312, margin: '0 auto', width: '100%' },
        body: { maxWidth: 1312, margin: '0 auto' },
      }}
    >
      {opened && <Suspense fallback={<PartLoading minHeight={320} />}>{children}</Suspense>}
    </Modal>
  );
}
