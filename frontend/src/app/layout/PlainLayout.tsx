import { Anchor, Group } from '@mantine/core';
import { Link, Outlet } from 'react-router';

import { LanguagePicker } from '../../shared/i18n/LanguagePicker';
import { paths } from '../../shared/routing/paths';
import { Logo } from '../../shared/ui/Logo';
import classes from './PlainLayout.module.css';

/** A quiet frame for account, billing and status pages: the logo, the language, the page. */
export function PlainLayout() {
  return (
    <div className={classes.shell}>
      <header className={classes.header} data-testid="plain-header">
        <Anchor component={Link} to={paths.root} underline="never" aria-label="TourAtlas">
          <Logo />
        </Anchor>
        <Group gap="xs">
          <LanguagePicker />
        </Group>
      </header>
      <Outlet />
    </div>
  );
}
