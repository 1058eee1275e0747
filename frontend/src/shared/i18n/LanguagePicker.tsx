import { Button, Menu } from '@mantine/core';
import { IconCheck, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../layout/breakpoints';
import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGES } from './languages';

/** The language list of spec §1; the choice is kept in localStorage `localise` by the i18n setup. */
export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  const compact = useIsMobile();
  // The chosen language, even when its texts fall back to English (resolvedLanguage would say 'en').
  const current = isLanguageCode(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const currentName = LANGUAGES.find((language) => language.code === current)?.name ?? current;
  const label = t('language.label', { language: currentName });

  return (
    <Menu position="bottom-end" radius="md" shadow="lg" width={200}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          radius="xl"
          size="sm"
          px={compact ? 8 : 12}
          leftSection={<IconWorld size={18} />}
          // WCAG 2.5.3: the name starts with the code the button shows (a voice user says "EN").
          aria-label={compact ? label : `${current.toUpperCase()}, ${label}`}
          data-testid="language-picker"
        >
          {compact ? null : current.toUpperCase()}
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="language-menu">
        <Menu.Label>{t('language.title')}</Menu.Label>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language.code}
            lang={language.code}
            onClick={() => void i18n.changeLanguage(language.code)}
            rightSection={language.code === current ? <IconCheck size={14} /> : null}
            data-testid={`language-option-${language.code}`}
          >
            {language.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
