import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Group, Kbd, Text } from '@mantine/core';
import { IconKeyboard } from '@tabler/icons-react';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';

import { SHORTCUTS } from '../model/keyboard';
import classes from './Moderation.module.css';

/** The screen's keys, always in view on a keyboard-sized screen. */
export function ShortcutHint() {
  const { t } = useTranslation();
  return (
    <Group gap={10} wrap="wrap" className={classes.hint} data-testid="shortcut-hint" aria-label={t('moderation.shortcuts.title')}>
      <IconKeyboard size={16} aria-hidden="true" />
      {SHORTCUTS.map(({ keys, hint }) => (
        <Group key={hint} gap={4} wrap="nowrap">
          {keys.map((key, index) => (
            <Fragment key={key}>
              {index > 0 && <Text size="xs">/</Text>}
              <Kbd className={classes.kbd}>{key}</Kbd>
            </Fragment>
          ))}
          <Text size="xs">{t(`moderation.shortcuts.${hint}`)}</Text>
        </Group>
      ))}
      <Text size="xs" c="dimmed">
        {t('moderation.shortcuts.selectionFirst')}
      </Text>
    </Group>
  );
}
