import { Anchor, Button, Group } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { FiltersDropdown } from '../../features/filters/components/FiltersDropdown';
import { NavigationMenu } from '../../features/navigation/components/NavigationMenu';
import { NewVersionButton } from '../../features/platform/components/NewVersionButton';
import { TopBarSearch } from '../../features/search/components/TopBarSearch';
import { MARKETING_SITE_URL, MARKETPLACE_URL } from '../../shared/config/links';
import { isPersonalFeed, useFilterState } from '../../shared/filters/filterState';
import { LanguagePicker } from '../../shared/i18n/LanguagePicker';
import { useIsMobile } from '../../shared/layout/breakpoints';
import { paths } from '../../shared/routing/paths';
import { Logo } from '../../shared/ui/Logo';
import classes from './TopBar.module.css';
import { ViewToggle } from './ViewToggle';

/** The top bar of spec §2. On mobile the search box takes a row of its own. */
export function TopBar() {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const filters = useFilterState();
  const showSearch = !isPersonalFeed(filters);

  return (
    <header className={classes.bar} data-testid="top-bar">
      <HomeLogo compact={mobile} />
      {showSearch && (
        <div className={classes.search}>
          <TopBarSearch />
        </div>
      )}
      <Group gap={8} wrap="nowrap" className={classes.actions}>
        <NewVersionButton />
        <ViewToggle />
        <FiltersDropdown />
        {MARKETPLACE_URL && !mobile && (
          <Button
            component="a"
            href={MARKETPLACE_URL}
            target="_blank"
            rel="noopener"
            variant="subtle"
            color="dark"
            radius="xl"
            leftSection={<IconBuildingStore size={18} />}
            data-testid="marketplace-link"
          >
            {t('topBar.marketplace')}
          </Button>
        )}
        <LanguagePicker />
        <NavigationMenu />
      </Group>
    </header>
  );
}

/** The logo links to the marketing site when one is configured, else to the feed. */
function HomeLogo({ compact }: { compact: boolean }) {
  const logo = <Logo compact={compact} />;
  if (MARKETING_SITE_URL) {
    return (
      <Anchor href={MARKETING_SITE_URL} underline="never" className={classes.logo} aria-label="TourAtlas">
        {logo}
      </Anchor>
    );
  }
  return (
    <Anchor component={Link} to={paths.feed} underline="never" className={classes.logo} aria-label="TourAtlas">
      {logo}
    </Anchor>
  );
}
