import { IconMailForward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { PageShell } from '../../../shared/ui/PageShell';

/** The administrators' mailing-list synchronisation page (spec §1, §7 "mailing-list sync"). */
export function MailingListPage() {
  const { t } = useTranslation();
  return <PageShell icon={<IconMailForward size={28} />} title={t('mailingList.title')} description={t('mailingList.description')} />;
}
