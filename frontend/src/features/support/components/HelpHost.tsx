import { lazy, useEffect, useState } from 'react';

import { registerAppAction } from '../../../shared/actions/appActions';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';
import type { HelpView } from './helpViews';

const HelpDialog = lazy(async () => ({ default: (await import('./HelpDialog')).HelpDialog }));

/**
 * Spec §2 "help tool" (the menu's Help & Feedback) and the bug report (the tour-not-found page's
 * "report it"): one dialog, opened at its menu or straight at the bug form; fetched when first opened.
 */
export function HelpHost() {
  const [view, setView] = useState<HelpView | null>(null);
  useEffect(() => {
    const stopHelp = registerAppAction('helpFeedback', () => setView('menu'));
    const stopBug = registerAppAction('bugReport', () => setView('bugReport'));
    return () => {
      stopHelp();
      stopBug();
    };
  }, []);
  return (
    <MountWhenOpened opened={view !== null}>
      <HelpDialog view={view} onNavigate={setView} onClose={() => setView(null)} />
    </MountWhenOpened>
  );
}
