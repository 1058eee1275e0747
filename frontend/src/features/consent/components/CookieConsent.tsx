import { Anchor, Badge, Button, Group, Modal, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconCookie } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  closeCookiePreferences,
  openCookiePreferences,
  readCookieConsent,
  saveCookieConsent,
  useCookieConsent,
  useCookiePreferencesOpen,
} from '../../../shared/consent/cookieConsent';
import { useLanguagePopup } from '../../../shared/i18n/languagePopup';
import { clearSearchHistory } from '../../../shared/search/searchHistory';
import classes from './CookieConsent.module.css';

/** Store the choice; turning preference cookies off also removes the one already written. */
function decide(preferences: boolean): void {
  saveCookieConsent({ preferences });
  if (!preferences) clearSearchHistory();
}

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
      <CookiePreferences opened={preferencesOpen} />
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

function CookiePreferences({ opened }: { opened: boolean }) {
  const { t } = useTranslation();
  const [preferences, setPreferences] = useState(true);
  // Each opening starts from the stored choice (or "on", the banner's suggestion).
  useEffect(() => {
    if (opened) setPreferences(readCookieConsent()?.preferences ?? true);
  }, [opened]);
  const save = (value: boolean) => {
    decide(value);
    closeCookiePreferences();
  };

  return (
    <Modal opened={opened} onClose={closeCookiePreferences} title={t('consent.preferencesTitle')} centered radius="lg" data-testid="cookie-preferences-modal" styles={{ title: { fontWeight: 700 } }}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('consent.preferencesIntro')}
        </Text>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Stack gap={2}>
            <Text size="sm">{t('consent.necessaryLabel')}</Text>
            <Text size="xs" c="dimmed">
              {t('consent.necessaryDescription')}
            </Text>
          </Stack>
          <Badge variant="light" color="gray" radius="sm" style={{ flexShrink: 0 }}>
            {t('consent.alwaysOn')}
          </Badge>
        </Group>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Stack gap={2}>
            <Text size="sm" id="cookie-preferences-label">
              {t('consent.preferencesLabel')}
            </Text>
            <Text size="xs" c="dimmed" id="cookie-preferences-description">
              {t('consent.preferencesDescription')}
            </Text>
          </Stack>
          <Switch
            checked={preferences}
            onChange={(event) => setPreferences(event.currentTarget.checked)}
            aria-labelledby="cookie-preferences-label"
            aria-describedby="cookie-preferences-description"
            size="md"
            data-testid="cookie-preferences-switch"
          />
        </Group>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" radius="xl" onClick={() => save(preferences)} data-testid="cookie-save">
            {t('consent.save')}
          </Button>
          <Button radius="xl" onClick={() => save(true)}>
            {t('consent.acceptAll')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
