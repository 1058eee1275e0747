import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Container, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconCategory } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { useSession } from '../../../shared/auth/session';
import { PageShell } from '../../../shared/ui/PageShell';
import { BatchUpload } from '../components/BatchUpload';
import { CategoriesTab } from '../components/CategoriesTab';
import classes from '../components/Classifications.module.css';
import { SimpleDictionaryTab } from '../components/SimpleDictionaryTab';
import { SubcategoriesTab } from '../components/SubcategoriesTab';
import { TagsTab } from '../components/TagsTab';
import { VendorsTab } from '../components/VendorsTab';
import { CLASSIFICATION_TABS, type ClassificationTab, isClassificationTab } from '../model/tabs';

/** Spec §2 classifications (§6 admin): every dictionary tours are filed under, and batch upload. */
export function ClassificationsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: ClassificationTab = isClassificationTab(requested) ? requested : 'categories';
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
    <Container size={1312} className={classes.page} data-testid="classifications-page">
      <Stack gap="md">
        <Stack gap={4}>
          <Group gap="xs">
            <IconCategory size={26} color="var(--mantine-color-brand-7)" aria-hidden="true" />
            <Title order={1} size="h2">
              {t('classifications.title')}
            </Title>
          </Group>
          <Text c="dimmed" size="sm" maw={760}>
            {t('classifications.description')}
          </Text>
        </Stack>
        <Tabs
          value={tab}
          onChange={(next) => setParams(next && next !== 'categories' ? { tab: next } : {}, { replace: true })}
          keepMounted={false}
          classNames={{ list: classes.tabList, tab: classes.tab }}
        >
          <Tabs.List aria-label={t('classifications.tabsLabel')} ref={tabList}>
            {CLASSIFICATION_TABS.map((key) => (
              <Tabs.Tab key={key} value={key} data-testid={`tab-${key}`}>
                {t(`classifications.tabs.${key}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
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
        </Tabs>
      </Stack>
    </Container>
  );
}
