import type { DriveStep, Driver } from 'driver.js';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useSession } from '../../../shared/auth/session';
import { useCookieConsent } from '../../../shared/consent/cookieConsent';
import { useLanguagePopup } from '../../../shared/i18n/languagePopup';
import { availablePreviewSteps, markPreviewGuideSeen, previewGuideSeen } from '../model/previewGuide';

// Let the feed draw its first cards, so the highlighted parts stay where they are.
const START_DELAY_MS = 800;

/**
 * The preview guide for guests (spec §2): a few highlighted stops over the category strip, search,
 * filters, map toggle and the menu. Keyboard: arrows move, Escape closes. Shown once per browser.
 */
export function PreviewGuide() {
  const { t } = useTranslation();
  const session = useSession();
  const consent = useCookieConsent();
  const languagePopup = useLanguagePopup();
  const ready = !session.signedIn && consent !== null && !languagePopup.opened && !previewGuideSeen();

  useEffect(() => {
    if (!ready) return;
    let tour: Driver | null = null;
    let cancelled = false;
    const timer = window.setTimeout(async () => {
      const { startPreviewTour } = await import('./previewTour');
      if (cancelled) return;
      const steps: DriveStep[] = availablePreviewSteps().map((step) => ({
        element: step.selector,
        popover: { title: t(`previewGuide.${step.key}.title`), description: t(`previewGuide.${step.key}.text`) },
      }));
      tour = startPreviewTour({
        steps,
        showProgress: true,
        progressText: t('previewGuide.progress', { current: '{{current}}', total: '{{total}}' }),
        nextBtnText: t('guide.next'),
        prevBtnText: t('guide.back'),
        doneBtnText: t('guide.finish'),
        popoverClass: 'touratlas-tour',
        stagePadding: 6,
        stageRadius: 12,
        overlayOpacity: 0.55,
        allowKeyboardControl: true,
        // Whatever ends the tour (done, ×, Escape, a click outside) means "seen".
        onDestroyed: markPreviewGuideSeen,
      });
    }, START_DELAY_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      tour?.destroy();
    };
  }, [ready, t]);

  return null;
}
