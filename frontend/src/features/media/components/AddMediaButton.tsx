import { ActionIcon, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { runAppAction, useAvailableAppActions } from '../../../shared/actions/appActions';
import { openLoginDialog } from '../../../shared/auth/loginDialog';
import { useSession } from '../../../shared/auth/session';
import { Hint } from '../../../shared/ui/Hint';

/** Add media (spec §2): the media form when signed in, otherwise the login dialog. */
export function AddMediaButton({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { signedIn } = useSession();
  const formAvailable = useAvailableAppActions().has('addMedia');
  // Signed in but this build has no media form registered: say so rather than do nothing.
  const unavailable = signedIn && !formAvailable;

  const onClick = () => {
    if (!signedIn) openLoginDialog();
    else runAppAction('addMedia');
  };

  const common = { onClick, disabled: unavailable, 'aria-label': t('media.add'), 'data-testid': 'add-media-button' };
  const control = compact ? (
    <ActionIcon radius="xl" size="lg" color="dark" {...common}>
      <IconPlus size={18} />
    </ActionIcon>
  ) : (
    <Button radius="xl" size="sm" color="dark" leftSection={<IconPlus size={16} />} {...common}>
      {t('media.add')}
    </Button>
  );
  // The labelled button needs no hint, unless to say why it is disabled.
  if (!compact && !unavailable) return control;
  return (
    <Hint label={unavailable ? t('media.addUnavailable') : t('media.add')} position="bottom-end">
      {control}
    </Hint>
  );
}
