import { Button, type ButtonProps } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../layout/breakpoints';
import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGES, type LanguageCode } from './languages';

/** The chosen language, even when its texts fall back to English (resolvedLanguage would say 'en'). */
export function useCurrentLanguage(): LanguageCode {
  const { i18n } = useTranslation();
  return isLanguageCode(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

/** The top bar's language button: the code of the current language (the globe alone on a phone). */
export function LanguageButton(props: ButtonProps & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  const compact = useIsMobile();
  const current = useCurrentLanguage();
  const currentName = LANGUAGES.find((language) => language.code === current)?.name ?? current;
  const label = t('language.label', { language: currentName });
  return (
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
      {...props}
    >
      {compact ? null : current.toUpperCase()}
    </Button>
  );
}
