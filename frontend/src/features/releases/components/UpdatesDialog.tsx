import '../../../shared/i18n/supportTexts'; // this screen's English texts (not in the feed's bundle)
import { Modal } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useSession } from '../../../shared/auth/session';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import type { Release } from '../api/releasesApi';
import { ReleaseForm } from './ReleaseForm';
import { ReleaseList } from './ReleaseList';

type Mode = { kind: 'view' } | { kind: 'edit'; release: Release | null };

/** Release notes in view mode for everybody; admins switch to the edit mode (spec §2). */
export function UpdatesDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const isAdmin = useSession().role === 'admin';
  const isMobile = useIsMobile();
  const [mode, setMode] = useState<Mode>({ kind: 'view' });
  const close = () => {
    setMode({ kind: 'view' });
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={t('updates.title')} size="lg" fullScreen={isMobile} radius={isMobile ? 0 : 'lg'}>
      {mode.kind === 'edit' && isAdmin ? (
        <ReleaseForm release={mode.release} onDone={() => setMode({ kind: 'view' })} />
      ) : (
        <ReleaseList editable={isAdmin} onCreate={() => setMode({ kind: 'edit', release: null })} onEdit={(release) => setMode({ kind: 'edit', release })} />
      )}
    </Modal>
  );
}
