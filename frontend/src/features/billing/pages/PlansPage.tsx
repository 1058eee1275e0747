import { List } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { PageShell } from '../../../shared/ui/PageShell';

/** Creator plans (spec §2 `/billing/plans`). */
export function PlansPage() {
  const { t } = useTranslation();
  return (
    <PageShell icon={<IconCreditCard size={28} />} title={t('billing.plans.title')} description={t('billing.plans.description')}>
      <List spacing="xs" c="dimmed">
        <List.Item>{t('billing.plans.profile')}</List.Item>
        <List.Item>{t('billing.plans.ads')}</List.Item>
        <List.Item>{t('billing.plans.featured')}</List.Item>
      </List>
    </PageShell>
  );
}
