import { Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { LanguageButton, useCurrentLanguage } from './LanguageButton';
import { LANGUAGES } from './languages';

/**
 * The language list of spec §1, fetched on first use (LanguagePicker draws its button until then);
 * `defaultOpened` when that button was clicked.
 */
export function LanguageMenu({ defaultOpened = false }: { defaultOpened?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = useCurrentLanguage();

  return (
    <Menu position="bottom-end" radius="md" shadow="lg" width={200} defaultOpened={defaultOpened}>
      <Menu.Target>
        <LanguageButton />
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
