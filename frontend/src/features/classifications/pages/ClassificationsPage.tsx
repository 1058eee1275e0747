import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Tabs } from '@mantine/core';
import { IconCategory } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useSession } from '../../../shared/auth/session';
import { PageShell } from '../../../shared/ui/PageShell';
import { TabbedPage, useTabInLink } from '../../../shared/ui/TabbedPage';
import { BatchUpload } from '../components/BatchUpload';
import { CategoriesTab } from '../components/CategoriesTab';
import { SimpleDictionaryTab } from '../components/SimpleDictionaryTab';
import { SubcategoriesTab } from '../components/SubcategoriesTab';
import { TagsTab } from '../components/TagsTab';
import { VendorsTab } from '../components/VendorsTab';
import { CLASSIFICATION_TABS } from '../model/tabs';

/** Spec §2 classifications (§6 admin): every dictionary tours are filed under, and batch upload. */
export function ClassificationsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [tab, choose] = useTabInLink(CLASSIFICATION_TABS, 'categories');
  const tabList = useRef<HTMLDivElement>(null);
  // A phone scrolls the tab strip sideways: the chosen tab is brought into view (a link may name any).
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const strip = tabList.current;
      const chosen = strip?.querySelector<HTMLElement>('[aria-selected="true"]');
      if (!strip || !chosen || strip.scrollWidth <= strip.clientWidth) return;
      const left = chosen.getBoundingClientRect().left - strip.getBoundingClientRect().left + strip.scrollLeft;
      if (left < strip.scrollLeft || left + chosen.offsetWidth > strip.scrollLeft + strip.clientWidth) {
        strip.scrollLeft = Math.max(0, left + chosen.offsetWidth - strip.clientWidth + 16);
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [tab]);

  if (session.role !== 'admin') {
    return (
      <div data-testid="classifications-admins-only">
        <PageShell icon={<IconCategory size={28} />} title={t('classifications.title')} description={t('classifications.adminsOnly')} />
      </div>
    );
  }
  return (
    <TabbedPage
      testId="classifications-page"
      icon={IconCategory}
      title={t('classifications.title')}
      description={t('classifications.description')}
      tabs={CLASSIFICATION_TABS}
      tab={tab}
      onChange={choose}
      tabsLabel={t('classifications.tabsLabel')}
      tabLabel={(key) => t(`classifications.tabs.${key}`)}
      tabTestId={(key) => `tab-${key}`}
      tabListRef={tabList}
    >
      <Tabs.Panel value="categories" pt="md">
        <CategoriesTab />
      </Tabs.Panel>
      <Tabs.Panel value="subcategories" pt="md">
        <SubcategoriesTab />
      </Tabs.Panel>
      <Tabs.Panel value="mediaTypes" pt="md">
        <SimpleDictionaryTab kind="media-types" />
      </Tabs.Panel>
      <Tabs.Panel value="captureDevices" pt="md">
        <SimpleDictionaryTab kind="capture-devices" />
      </Tabs.Panel>
      <Tabs.Panel value="tags" pt="md">
        <TagsTab />
      </Tabs.Panel>
      <Tabs.Panel value="vendors" pt="md">
        <VendorsTab />
      </Tabs.Panel>
      <Tabs.Panel value="batch" pt="md">
        <BatchUpload />
      </Tabs.Panel>
    </TabbedPage>
  );
}
