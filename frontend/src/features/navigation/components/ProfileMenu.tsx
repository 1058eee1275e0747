import { Badge, Menu, UnstyledButton } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  IconAd2,
  IconBell,
  IconBookmarks,
  IconBuildingStore,
  IconCategory,
  IconChartBar,
  IconChartPie,
  IconHash,
  IconHelpCircle,
  IconId,
  IconLogin2,
  IconLogout,
  IconMail,
  IconMovie,
  IconPlus,
  IconSettings,
  IconShieldCheck,
  IconUser,
  type Icon,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { runAppAction, useAvailableAppActions } from '../../../shared/actions/appActions';
import { openLoginDialog } from '../../../shared/auth/loginDialog';
import { signOut } from '../../../shared/auth/signOut';
import { useSession } from '../../../shared/auth/session';
import { usePendingCreator } from '../../../shared/creators/pendingCreator';
import { MARKETPLACE_URL } from '../../../shared/config/links';
import { formatCount } from '../../../shared/format/formatCount';
import { useIsDesktop, useIsMobile } from '../../../shared/layout/breakpoints';
import { isPlatformQuery } from '../../../shared/platform/platformQueryKeys';
import { paths } from '../../../shared/routing/paths';
import { readItem, STORAGE_KEYS } from '../../../shared/storage/localStore';
import { useModerationWaiting } from '../api/moderationCounts';
import { navigationItems, type Device, type NavigationItem, type NavigationKey } from '../navigationItems';
import classes from './NavigationMenu.module.css';
import { ProfileTriggerContent } from './ProfileTrigger';

const ICONS: Record<NavigationKey, Icon> = {
  updates: IconBell,
  popularTags: IconHash,
  moderation: IconShieldCheck,
  manageMedia: IconMovie,
  manageAds: IconAd2,
  analytics: IconChartBar,
  adsAnalytics: IconChartPie,
  mailingList: IconMail,
  classifications: IconCategory,
  addMedia: IconPlus,
  marketplace: IconBuildingStore,
  creatorProfile: IconId,
  profile: IconUser,
  settings: IconSettings,
  helpFeedback: IconHelpCircle,
};

function useDevice(): Device {
  const mobile = useIsMobile();
  const desktop = useIsDesktop();
  if (mobile) return 'mobile';
  return desktop ? 'desktop' : 'tablet';
}

/**
 * The profile menu of the top bar with the navigation entries of the user's role (spec §2), fetched on
 * first use (NavigationMenu draws its button until then); `defaultOpened` when that button was clicked.
 */
export function ProfileMenu({ defaultOpened = false }: { defaultOpened?: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const device = useDevice();
  const availableActions = useAvailableAppActions();
  const openItem = useOpenItem();
  const confirmSignOut = useConfirmSignOut();
  const items = navigationItems(session.role, device, { creatorId: session.creatorId, marketplaceUrl: MARKETPLACE_URL });
  const waiting = useModerationWaiting();
  // Spec §2: a signed-in user's Profile entry is the way to become a creator, or says the profile waits.
  const becoming = session.signedIn && session.role === 'user';
  const pendingCreator = usePendingCreator(becoming).data?.is_pending === true;
  const label = (key: NavigationKey) => {
    if (key !== 'profile' || !becoming) return t(`nav.items.${key}`);
    return pendingCreator ? t('nav.creatorPending') : t('nav.becomeCreator');
  };

  const rightSection = (key: NavigationKey) => {
    if (key === 'moderation' && waiting > 0) return <ModerationBadge waiting={waiting} />;
    if (key === 'profile' && becoming && pendingCreator) {
      return (
        <Badge size="sm" color="yellow" variant="light" radius="xl">
          {t('nav.pendingBadge')}
        </Badge>
      );
    }
    return null;
  };

  // Entries whose screen is not in this build stay visible but inactive, unless sign-in comes first.
  const isInactive = (item: NavigationItem) =>
    item.target.kind === 'action' && !availableActions.has(item.target.action) && (session.signedIn || !item.requiresSignIn);

  return (
    <Menu position="bottom-end" radius="md" shadow="lg" width={240} offset={8} defaultOpened={defaultOpened}>
      <Menu.Target>
        <UnstyledButton className={classes.trigger} aria-label={t('nav.open')} data-testid="profile-menu">
          <ProfileTriggerContent />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown data-testid="navigation-menu">
        <Menu.Label>{t(`nav.roles.${session.role}`)}</Menu.Label>
        {items.map((item) => {
          const ItemIcon = ICONS[item.key];
          return (
            <Menu.Item
              key={item.key}
              leftSection={<ItemIcon size={16} />}
              disabled={isInactive(item)}
              onClick={() => openItem(item, session.signedIn)}
              rightSection={rightSection(item.key)}
              data-testid={`menu-${item.key}`}
              data-pending={item.key === 'profile' && pendingCreator ? 'true' : undefined}
            >
              {label(item.key)}
            </Menu.Item>
          );
        })}
        {session.signedIn && availableActions.has('savedTours') && (
          // Not one of the role menus of spec §2 but a sidebar item every signed-in user has.
          <Menu.Item leftSection={<IconBookmarks size={16} />} onClick={() => runAppAction('savedTours')} data-testid="menu-saved-tours">
            {t('nav.savedTours')}
          </Menu.Item>
        )}
        <Menu.Divider />
        {session.signedIn ? (
          <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={confirmSignOut}>
            {t('nav.logout')}
          </Menu.Item>
        ) : (
          <Menu.Item leftSection={<IconLogin2 size={16} />} onClick={openLoginDialog}>
            {t('nav.login')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The number of items waiting for an admin, beside the Moderation entry (spec §4 "Pending approval items"). */
function ModerationBadge({ waiting }: { waiting: number }) {
  const { t } = useTranslation();
  return (
    <Badge size="sm" color="red" variant="filled" radius="xl" aria-label={t('moderationQueue.waiting', { count: waiting })} data-testid="moderation-count">
      {formatCount(waiting)}
    </Badge>
  );
}

function useOpenItem(): (item: NavigationItem, signedIn: boolean) => void {
  const navigate = useNavigate();
  return (item, signedIn) => {
    if (item.requiresSignIn && !signedIn) {
      openLoginDialog();
      return;
    }
    const { target } = item;
    if (target.kind === 'route') void navigate(target.to);
    else if (target.kind === 'external') window.open(target.href, '_blank', 'noopener');
    else runAppAction(target.action);
  };
}

/** Logout asks first; then registration when access is restricted, else 'Logout Successful' (spec §2). */
function useConfirmSignOut(): () => void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () =>
    modals.openConfirmModal({
      title: t('logout.question'),
      centered: true,
      radius: 'lg',
      labels: { confirm: t('logout.confirm'), cancel: t('logout.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-sign-out' },
      onConfirm: async () => {
        await signOut();
        // Cached answers were made for the signed-in user (is_save, is_follow…): drop them.
        queryClient.removeQueries({ predicate: (query) => !isPlatformQuery(query.queryKey) });
        if (readItem(STORAGE_KEYS.restrictAccess) === 'true') {
          void navigate(paths.registration);
        } else {
          notifications.show({ color: 'brand', message: t('logout.success') });
        }
      },
    });
}
