import { NavLink, Stack, Text } from '@mantine/core';
import { IconBug, IconBulb, IconCookie, IconExternalLink, IconFileText, IconFlask, IconLifebuoy, IconShieldLock, IconVideo } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { PRIVACY_POLICY_URL, TERMS_URL } from '../../../shared/config/links';
import { openCookiePreferences } from '../../../shared/consent/cookieConsent';
import type { HelpView } from './helpViews';

type EntryKey = 'support' | 'cookies' | 'videos' | 'featureRequest' | 'bugReport' | 'beta' | 'privacy' | 'terms';

interface Entry {
  key: EntryKey;
  icon: ReactNode;
  /** Another screen of the dialog, or a page outside the app. */
  target: { view: HelpView } | { run: () => void } | { href: string };
}

function entries(onLeave: () => void): Entry[] {
  const all: (Entry | null)[] = [
    { key: 'support', icon: <IconLifebuoy size={20} />, target: { view: 'support' } },
    {
      key: 'cookies',
      icon: <IconCookie size={20} />,
      target: {
        run: () => {
          onLeave();
          openCookiePreferences();
        },
      },
    },
    { key: 'videos', icon: <IconVideo size={20} />, target: { view: 'videos' } },
    { key: 'featureRequest', icon: <IconBulb size={20} />, target: { view: 'featureRequest' } },
    { key: 'bugReport', icon: <IconBug size={20} />, target: { view: 'bugReport' } },
    { key: 'beta', icon: <IconFlask size={20} />, target: { view: 'beta' } },
    // Policies live on the marketing site: without a configured address the entry is left out.
    PRIVACY_POLICY_URL ? { key: 'privacy', icon: <IconShieldLock size={20} />, target: { href: PRIVACY_POLICY_URL } } : null,
    TERMS_URL ? { key: 'terms', icon: <IconFileText size={20} />, target: { href: TERMS_URL } } : null,
  ];
  return all.filter((entry): entry is Entry => entry !== null);
}

/** The help tool's entries (spec §2): support, cookie preferences, tutorial videos, feature request, privacy policy, terms, the bug report and the beta-tester questionnaire. */
export function HelpMenu({ onOpen, onLeave }: { onOpen: (view: HelpView) => void; onLeave: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text c="dimmed" size="sm" mb="xs">
        {t('help.intro')}
      </Text>
      {entries(onLeave).map((entry) => {
        const common = {
          label: t(`help.entries.${entry.key}`),
          description: t(`help.descriptions.${entry.key}`),
          leftSection: entry.icon,
          'data-testid': `help-${entry.key}`,
        };
        if ('href' in entry.target) {
          return (
            <NavLink
              key={entry.key}
              {...common}
              href={entry.target.href}
              target="_blank"
              rel="noopener noreferrer"
              rightSection={<IconExternalLink size={14} aria-hidden="true" />}
            />
          );
        }
        const target = entry.target;
        return <NavLink key={entry.key} component="button" type="button" {...common} onClick={() => ('view' in target ? onOpen(target.view) : target.run())} />;
      })}
    </Stack>
  );
}
