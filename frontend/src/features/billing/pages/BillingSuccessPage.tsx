import { Button, Group } from '@mantine/core';
import { IconRosetteDiscountCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';

/** After payment or when a trial starts (spec §2 `/billing/success`): setting up the creator profile. */
export function BillingSuccessPage() {
  const { t } = useTranslation();
  return (
    <PageShell icon={<IconRosetteDiscountCheck size={28} />} title={t('billing.success.title')} description={t('billing.success.description')}>
      <Group>
        <Button component={Link} to={paths.billingPlans} variant="default" radius="xl">
          {t('billing.success.plans')}
        </Button>
      </Group>
    </PageShell>
  );
}
