import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Anchor, Group, Modal, Tabs, Text } from '@mantine/core';
import { IconCategory, IconCookie, IconCreditCard, IconKey, IconUser, IconWorld } from '@tabler/icons-react';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useCurrentUser } from '../../../shared/auth/currentUser';
import { useSession } from '../../../shared/auth/session';
import { openCookiePreferences } from '../../../shared/consent/cookieConsent';
import { openLanguagePopup } from '../../../shared/i18n/languagePopup';
import { LANGUAGES } from '../../../shared/i18n/languages';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { closeSettingsDialog, selectSettingsTab, useSettingsDialog } from '../../../shared/settings/settingsDialog';
import { PartLoading } from '../../../shared/ui/PartLoading';
import { TabLoading } from './SettingsStates';

// The tabs' forms are fetched when the modal first opens, not with the feed.
const AccountTab = lazy(async () => ({ default: (await import('./AccountTab')).AccountTab }));
const InterestsTab = lazy(async () => ({ default: (await import('./InterestsTab')).InterestsTab }));
const VendorTokensTab = lazy(async () => ({ default: (await import('./VendorTokensTab')).VendorTokensTab }));
const BillingTab = lazy(async () => ({ default: (await import('./BillingTab')).BillingTab }));

/**
 * The settings modal (spec §2): Account, 3D-capture vendor API tokens (creators and admins: spec §6),
 * Interests and Billing (the billing subscriptions). Opened from the profile menu's 'Settings' and from the guide; fetched when first
 * opened (SettingsHost).
 */
export function SettingsModal() {
  const { t } = useTranslation();
  const { opened, tab } = useSettingsDialog();
  const session = useSession();
  const mobile = useIsMobile();
  const user = useCurrentUser();
  const showVendors = session.role === 'creator' || session.role === 'admin';
  const shownTab = tab === 'vendors' && !showVendors ? 'account' : tab;

  // Signing out (in this tab or another) closes it: there is no account to show any more.
  useEffect(() => {
    if (!session.signedIn) closeSettingsDialog();
  }, [session.signedIn]);

  return (
    <Modal
      opened={opened && session.signedIn}
      onClose={closeSettingsDialog}
      title={t('settings.title')}
      size="lg"
      radius={mobile ? 0 : 'lg'}
      fullScreen={mobile}
      centered
      data-testid="settings-modal"
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Tabs value={shownTab} onChange={(next) => selectSettingsTab(next === 'interests' || next === 'vendors' || next === 'billing' ? next : 'account')} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="account" leftSection={<IconUser size={16} />}>
            {t('settings.tabs.account')}
          </Tabs.Tab>
          {showVendors && (
            <Tabs.Tab value="vendors" leftSection={<IconKey size={16} />} data-testid="settings-tab-vendors">
              {t('settings.tabs.vendors')}
            </Tabs.Tab>
          )}
          <Tabs.Tab value="interests" leftSection={<IconCategory size={16} />}>
            {t('settings.tabs.interests')}
          </Tabs.Tab>
          <Tabs.Tab value="billing" leftSection={<IconCreditCard size={16} />} data-testid="settings-tab-billing">
            {t('settings.tabs.billing')}
          </Tabs.Tab>
        </Tabs.List>
        {user.data ? (
          <Suspense fallback={<PartLoading />}>
            <Tabs.Panel value="account">
              <AccountTab user={user.data} />
            </Tabs.Panel>
            {showVendors && (
              <Tabs.Panel value="vendors">
                <VendorTokensTab />
              </Tabs.Panel>
            )}
            <Tabs.Panel value="interests">
              <InterestsTab />
            </Tabs.Panel>
            <Tabs.Panel value="billing">
              <BillingTab />
            </Tabs.Panel>
          </Suspense>
        ) : (
          <TabLoading error={user.error} onRetry={() => void user.refetch()} />
        )}
      </Tabs>
      <SettingsFooter />
    </Modal>
  );
}

/** Preferences that are not part of the account: the language and the cookie choice. */
function SettingsFooter() {
  const { t, i18n } = useTranslation();
  const language = LANGUAGES.find((entry) => entry.code === i18n.language)?.name ?? i18n.language;
  return (
    <Group justify="space-between" mt="lg" pt="md" gap="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
      <Group gap={6} wrap="nowrap">
        <IconWorld size={16} aria-hidden="true" />
        <Text size="sm">{language}</Text>
        <Anchor component="button" type="button" size="sm" onClick={() => openLanguagePopup()} data-testid="settings-language">
          {t('settings.changeLanguage')}
        </Anchor>
      </Group>
      <Anchor component="button" type="button" size="sm" onClick={openCookiePreferences}>
        <Group gap={6} wrap="nowrap">
          <IconCookie size={16} aria-hidden="true" />
          {t('consent.preferencesLink')}
        </Group>
      </Anchor>
    </Group>
  );
}
