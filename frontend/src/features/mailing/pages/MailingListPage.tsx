import '../../../shared/i18n/mailingTexts'; // this page's English texts (not in the feed's bundle)

import { Stack } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { useSession } from '../../../shared/auth/session';
import type { RealtimeConnection } from '../../../shared/socket/realtimeConnection';
import { PageShell } from '../../../shared/ui/PageShell';
import { ConnectionStatus } from '../components/ConnectionStatus';
import { MembersDiff } from '../components/MembersDiff';
import { SyncPanel } from '../components/SyncPanel';

/**
 * The administrators' mailing-list synchronisation page (spec §2, §7 "mailing-list sync").
 * `connection`: the realtime connection the sync's progress arrives on (the tab's by default).
 */
export function MailingListPage({ connection }: { connection?: RealtimeConnection } = {}) {
  const { t } = useTranslation();
  const session = useSession();
  if (session.role !== 'admin') {
    // Nothing is asked of the server: every call here is for administrators only.
    return <PageShell icon={<IconMailForward size={28} />} title={t('mailingList.title')} description={t('mailingSync.adminsOnly')} />;
  }
  return (
    <PageShell icon={<IconMailForward size={28} />} title={t('mailingList.title')} description={t('mailingList.description')} size="lg">
      <Stack gap="lg">
        <ConnectionStatus />
        <SyncPanel connection={connection} />
        <MembersDiff />
      </Stack>
    </PageShell>
  );
}
