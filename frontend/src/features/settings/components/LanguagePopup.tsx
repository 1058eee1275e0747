import { Button, Modal, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { closeLanguagePopup, useLanguagePopup } from '../../../shared/i18n/languagePopup';
import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGES, type LanguageCode } from '../../../shared/i18n/languages';
import classes from './LanguagePopup.module.css';

/**
 * The language selection popup (spec §2): the eleven languages; a choice switches the texts at once
 * and is kept in `localise`. It opens by itself on a first visit when the browser asks for one of our
 * other languages, and from the settings modal (LanguagePopupHost, which fetches it when first opened).
 */
export function LanguagePopup() {
  const { t, i18n } = useTranslation();
  const { opened, suggested } = useLanguagePopup();
  const current: LanguageCode = isLanguageCode(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;

  const choose = (code: LanguageCode) => {
    // Also when the choice is the language already shown: it is stored, so a first visit ends here.
    void i18n.changeLanguage(code);
    closeLanguagePopup();
  };

  return (
    <Modal
      opened={opened}
      onClose={() => choose(current)}
      title={t('languagePopup.title', { lng: suggested ?? current })}
      centered
      radius="lg"
      size="md"
      data-testid="language-popup"
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Stack gap="md">
        {suggested && (
          <Button size="md" radius="xl" onClick={() => choose(suggested)} lang={suggested} data-testid="language-suggested" data-autofocus>
            {t('languagePopup.continueIn', { lng: suggested, language: nameOf(suggested) })}
          </Button>
        )}
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
          {LANGUAGES.map((language) => (
            <UnstyledButton
              key={language.code}
              className={classes.option}
              aria-pressed={language.code === current}
              data-active={language.code === current || undefined}
              lang={language.code}
              onClick={() => choose(language.code)}
              data-testid={`language-popup-${language.code}`}
            >
              <span>{language.name}</span>
              {language.code === current && <IconCheck size={16} aria-hidden="true" />}
            </UnstyledButton>
          ))}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('languagePopup.fallbackNote', { lng: suggested ?? current })}
        </Text>
      </Stack>
    </Modal>
  );
}

function nameOf(code: LanguageCode): string {
  return LANGUAGES.find((language) => language.code === code)?.name ?? code;
}
