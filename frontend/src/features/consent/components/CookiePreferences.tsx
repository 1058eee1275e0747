import { Badge, Button, Group, Modal, Stack, Switch, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { closeCookiePreferences, readCookieConsent } from '../../../shared/consent/cookieConsent';
import { decide } from './decideConsent';

/** The cookie preferences dialog (CookieConsent): necessary cookies always, preference cookies on or off. */
export function CookiePreferences({ opened }: { opened: boolean }) {
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
