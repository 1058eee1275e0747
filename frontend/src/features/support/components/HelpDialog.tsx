import '../../../shared/i18n/supportTexts'; // this screen's English texts (not in the feed's bundle)
import { Button, Modal } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { openLoginDialog } from '../../../shared/auth/loginDialog';
import { useSession } from '../../../shared/auth/session';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { BetaQuestionnaire } from './BetaQuestionnaire';
import { BugReportForm } from './BugReportForm';
import { ContactSupportForm } from './ContactSupportForm';
import { FeatureRequestForm } from './FeatureRequestForm';
import { HelpMenu } from './HelpMenu';
import type { HelpView } from './helpViews';
import { TutorialVideos } from './TutorialVideos';

// The forms send as the signed-in account (spec §6: registered users send them).
const NEEDS_ACCOUNT: ReadonlySet<HelpView> = new Set(['support', 'featureRequest', 'bugReport', 'beta']);

interface HelpDialogProps {
  view: HelpView | null;
  onNavigate: (view: HelpView) => void;
  onClose: () => void;
}

export function HelpDialog({ view, onNavigate, onClose }: HelpDialogProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const signedIn = useSession().signedIn;
  const open = (next: HelpView) => {
    if (NEEDS_ACCOUNT.has(next) && !signedIn) {
      onClose();
      openLoginDialog();
      return;
    }
    onNavigate(next);
  };
  const title = view === null || view === 'menu' ? t('help.title') : t(`help.entries.${view}`);
  return (
    <Modal opened={view !== null} onClose={onClose} title={title} size="md" fullScreen={isMobile} radius={isMobile ? 0 : 'lg'}>
      {view !== null && view !== 'menu' && (
        <Button variant="subtle" size="compact-sm" leftSection={<IconArrowLeft size={14} />} mb="sm" onClick={() => onNavigate('menu')}>
          {t('help.back')}
        </Button>
      )}
      {view === 'menu' && <HelpMenu onOpen={open} onLeave={onClose} />}
      {view === 'support' && <ContactSupportForm onSent={onClose} />}
      {view === 'featureRequest' && <FeatureRequestForm onSent={onClose} />}
      {view === 'bugReport' && (signedIn ? <BugReportForm onSent={onClose} /> : <SignInFirst />)}
      {view === 'videos' && <TutorialVideos />}
      {view === 'beta' && (signedIn ? <BetaQuestionnaire onClose={onClose} /> : <SignInFirst />)}
    </Modal>
  );
}

/** A form opened straight by a guest (the bug report from tour-not-found), or left open after signing out: it sends as an account. */
function SignInFirst() {
  const { t } = useTranslation();
  return (
    <Button radius="xl" onClick={openLoginDialog}>
      {t('help.signIn')}
    </Button>
  );
}
