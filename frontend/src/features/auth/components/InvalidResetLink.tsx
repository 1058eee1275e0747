import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconLinkOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '../../../shared/routing/paths';

/** A reset link that was already used, has expired or never existed: say so and offer a new one. */
export function InvalidResetLink() {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" radius="lg" icon={<IconLinkOff size={20} />} title={t('resetPassword.invalidTitle')} role="alert" data-testid="reset-invalid">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('resetPassword.invalidText')}</Text>
        <Button component={Link} to={paths.resetPassword} size="xs" variant="white" color="red">
          {t('resetPassword.askAgain')}
        </Button>
      </Stack>
    </Alert>
  );
}
