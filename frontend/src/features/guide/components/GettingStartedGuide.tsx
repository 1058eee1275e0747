import { lazy, Suspense, useState } from 'react';

import { useCurrentUser } from '../../../shared/auth/currentUser';
import { useCookieConsent } from '../../../shared/consent/cookieConsent';
import { useLanguagePopup } from '../../../shared/i18n/languagePopup';
import { useSettingsDialog } from '../../../shared/settings/settingsDialog';
import { isGuideComplete } from '../model/guideSteps';

// Only new users see it: the dialog is fetched when one needs it (frontend/README.md, "Bundle budget").
const GuideDialog = lazy(async () => ({ default: (await import('./GuideDialog')).GuideDialog }));

/**
 * The getting-started guide for new users (spec §2, §4): shown until completeGuide is set, after the
 * first-visit questions (language, cookies) are answered, and out of the way while settings are open.
 */
export function GettingStartedGuide() {
  const user = useCurrentUser();
  const consent = useCookieConsent();
  const languagePopup = useLanguagePopup();
  const settings = useSettingsDialog();
  // Closed for this page even if the server could not be told (it shows again on the next visit).
  const [closedHere, setClosedHere] = useState(false);
  if (!user.data || isGuideComplete(user.data.guide_steps) || closedHere) return null;
  const waiting = consent === null || languagePopup.opened || settings.opened;
  return (
    <Suspense fallback={null}>
      <GuideDialog user={user.data} hidden={waiting} onClosed={() => setClosedHere(true)} />
    </Suspense>
  );
}
