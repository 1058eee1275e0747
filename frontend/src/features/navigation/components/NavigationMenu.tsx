import { UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { firstUseLoader, OnFirstUse } from '../../../shared/ui/OnFirstUse';
import classes from './NavigationMenu.module.css';
import { ProfileTriggerContent } from './ProfileTrigger';

// The menu (Mantine's Menu and floating-ui, the entries and their icons) is fetched on first use.
const profileMenu = firstUseLoader(async () => (await import('./ProfileMenu')).ProfileMenu);

/** The profile menu of the top bar (spec §2): its button at once, the menu when the visitor reaches for it. */
export function NavigationMenu() {
  const { t } = useTranslation();
  return (
    <OnFirstUse
      loader={profileMenu}
      light={(intent) => (
        <UnstyledButton className={classes.trigger} aria-label={t('nav.open')} aria-haspopup="menu" aria-expanded={false} data-testid="profile-menu" {...intent}>
          <ProfileTriggerContent />
        </UnstyledButton>
      )}
      full={(ProfileMenu, openAtStart) => <ProfileMenu defaultOpened={openAtStart} />}
    />
  );
}
