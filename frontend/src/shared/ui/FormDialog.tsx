import { Modal, type ModalProps } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';

import { useIsMobile } from '../layout/breakpoints';
import { createStore } from '../lib/store';

const openFormDialogs = createStore(0);

/**
 * Whether an add/edit form is open: the manage dialog under it then leaves Escape to the form (Mantine
 * closes every open modal on one Escape, and the form asks first when something was typed).
 */
export function useFormDialogOpen(): boolean {
  return openFormDialogs.useStore() > 0;
}

interface FormDialogProps {
  opened: boolean;
  /** Usually asks the form first: closing with something typed asks before losing it. */
  onClose: () => void;
  title: string;
  size: ModalProps['size'];
  children: ReactNode;
}

/**
 * The modal of an add/edit form (media, ad, creator profile): full screen on a phone, never closed by
 * a click outside. Its z-index (250) keeps it above a manage dialog it opens from and below its own
 * confirm and message dialogs (400).
 */
export function FormDialog({ opened, onClose, title, size, children }: FormDialogProps) {
  const mobile = useIsMobile();
  useEffect(() => {
    if (!opened) return;
    openFormDialogs.update((count) => count + 1);
    return () => openFormDialogs.update((count) => count - 1);
  }, [opened]);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      radius={mobile ? 0 : 'lg'}
      fullScreen={mobile}
      padding={mobile ? 'md' : 'xl'}
      closeOnClickOutside={false}
      zIndex={250}
      styles={{ title: { fontWeight: 700, fontSize: '1.25rem' } }}
    >
      {children}
    </Modal>
  );
}
