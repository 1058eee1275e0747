import { lazy, useEffect, useState } from 'react';

import { registerAppAction } from '../../../shared/actions/appActions';
import { whenSignedIn } from '../../../shared/auth/loginDialog';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';
import type { AnalyticsKind } from '../model/metrics';

// The charts, the calendar and the screens' texts come with the dialog, never with the feed.
const AnalyticsDialog = lazy(async () => ({ default: (await import('./AnalyticsDialog')).AnalyticsDialog }));

/**
 * Spec §2 "Statistics (creator, ads)": the menu's Analytics (a creator's own; an admin's goes to the
 * platform statistics page instead) and Ads Analytics open this dialog; fetched when first opened.
 */
export function AnalyticsHost() {
  const [opened, setOpened] = useState(false);
  // Kept while the dialog animates closed, so its title does not change under the reader's eyes.
  const [kind, setKind] = useState<AnalyticsKind>('tours');

  useEffect(() => {
    const open = (next: AnalyticsKind) =>
      whenSignedIn(() => {
        setKind(next);
        setOpened(true);
      });
    const stopTours = registerAppAction('analytics', open('tours'));
    const stopAds = registerAppAction('adsAnalytics', open('ads'));
    return () => {
      stopTours();
      stopAds();
    };
  }, []);

  return (
    <MountWhenOpened opened={opened}>
      <AnalyticsDialog kind={kind} opened={opened} onClose={() => setOpened(false)} />
    </MountWhenOpened>
  );
}
