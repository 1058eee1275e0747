import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { IconCategory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { TabbedPage } from '../../../shared/ui/TabbedPage';
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
  return (
    <TabbedPage
      testId="classifications-page"
      adminsOnly={{ text: t('classifications.adminsOnly'), testId: 'classifications-admins-only' }}
      icon={IconCategory}
      title={t('classifications.title')}
      description={t('classifications.description')}
      tabs={CLASSIFICATION_TABS}
      tabsLabel={t('classifications.tabsLabel')}
      tabLabel={(key) => t(`classifications.tabs.${key}`)}
      tabTestId={(key) => `tab-${key}`}
      panels={{
        categories: <CategoriesTab />,
        subcategories: <SubcategoriesTab />,
        mediaTypes: <SimpleDictionaryTab kind="media-types" />,
        captureDevices: <SimpleDictionaryTab kind="capture-devices" />,
        tags: <TagsTab />,
        vendors: <VendorsTab />,
        batch: <BatchUpload />,
      }}
    />
  );
}
