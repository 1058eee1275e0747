import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCookie } from '@tabler/icons-react';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';

import { openCookiePreferences, useCookieConsent, useCookiePreferencesOpen } from '../../../shared/consent/cookieConsent';
import { useLanguagePopup } from '../../../shared/i18n/languagePopup';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';
import classes from './CookieConsent.module.css';
import { decide } from './decideConsent';

// The preferences dialog is fetched when first opened (frontend/README.md, "Bundle budget").
const CookiePreferences = lazy(async () => ({ default: (await import('./CookiePreferences')).CookiePreferences }));

/**
 * The cookie consent banner (spec §2) until the visitor decides, and the preferences dialog, which
 * can be opened again later (settings, the help tool's 'cookie preferences').
 */
export function CookieConsent() {
  const consent = useCookieConsent();
  const preferencesOpen = useCookiePreferencesOpen();
  const languagePopup = useLanguagePopup();
  // One question at a time: the language popup of a first visit comes first.
  const showBanner = consent === null && !preferencesOpen && !languagePopup.opened;
  return (
    <>
      {showBanner && <ConsentBanner />}
      <MountWhenOpened opened={preferencesOpen}>
        <CookiePreferences opened={preferencesOpen} />
      </MountWhenOpened>
    </>
  );
}

function ConsentBanner() {
  const { t } = useTranslation();
  return (
    <Paper
      component="section"
      className={classes.banner}
      shadow="xl"
      radius="lg"
      withBorder
      aria-labelledby="cookie-consent-title"
      data-testid="cookie-banner"
    >
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconCookie size={22} className={classes.icon} aria-hidden="true" />
          <Title order={2} size="h5" id="cookie-consent-title">
            {t('consent.title')}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {t('consent.text')}
        </Text>
        <Group gap="xs" justify="flex-end" className={classes.actions}>
          <Anchor component="button" type="button" size="sm" onClick={openCookiePreferences} className={classes.preferencesLink} data-testid="cookie-preferences">
            {t('consent.preferences')}
          </Anchor>
          <Button variant="default" radius="xl" size="sm" className={classes.choice} onClick={() => decide(false)} data-testid="cookie-necessary">
            {t('consent.necessaryOnly')}
          </Button>
          <Button radius="xl" size="sm" className={classes.choice} onClick={() => decide(true)} data-testid="cookie-accept">
            {t('consent.acceptAll')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
