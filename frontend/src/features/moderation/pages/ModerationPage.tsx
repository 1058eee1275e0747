import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Badge, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck, IconUsers } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { useSession } from '../../../shared/auth/session';
import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';
import { useRealtimeState } from '../api/useRealtimeState';
import classes from '../components/Moderation.module.css';
import { type QueueState, QueueView } from '../components/QueueView';
import { isApprovalKind, isTabKey } from '../model/tabs';

/** The tab, kind, search and page live in the link: a reload or a shared link opens the same list. */
function readState(params: URLSearchParams): QueueState {
  const tab = params.get('tab');
  const kind = params.get('kind');
  const page = Number(params.get('page') ?? '1');
  return {
    tab: isTabKey(tab) ? tab : 'pending',
    kind: isApprovalKind(kind) ? kind : null,
    search: (params.get('q') ?? '').trim(),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

function writeState(state: QueueState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.tab !== 'pending') params.set('tab', state.tab);
  if (state.kind) params.set('kind', state.kind);
  if (state.search) params.set('q', state.search);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** Spec §2 "moderation system": the admins' live queue of everything waiting, by tab. */
export function ModerationPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const state = readState(params);
  const live = useRealtimeState();
  const change = useCallback(
    (next: Partial<QueueState>) => setParams((current) => writeState({ ...readState(current), ...next }), { replace: true }),
    [setParams],
  );

  if (session.role !== 'admin') {
    return <PageShell icon={<IconShieldCheck size={28} />} title={t('moderation.title')} description={t('moderation.adminsOnly')} />;
  }
  return (
    <Container size={1312} className={classes.page} data-testid="moderation-page">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
          <Stack gap={4}>
            <Group gap="xs">
              <IconShieldCheck size={26} color="var(--mantine-color-brand-7)" aria-hidden="true" />
              <Title order={1} size="h2">
                {t('moderation.title')}
              </Title>
            </Group>
            <Text c="dimmed" size="sm" maw={720}>
              {t('moderation.description')}
            </Text>
          </Stack>
          <Group gap="sm" wrap="wrap">
            <Button component={Link} to={paths.usersAdmin} variant="light" size="sm" leftSection={<IconUsers size={16} aria-hidden="true" />} data-testid="moderation-users-link">
              {t('usersAdmin.openLink')}
            </Button>
            <Badge variant="dot" color={live ? 'teal' : 'gray'} size="lg" data-testid="moderation-live" data-live={live}>
              {live ? t('moderation.live') : t('moderation.offline')}
            </Badge>
          </Group>
        </Group>
        <QueueView state={state} onChange={change} />
      </Stack>
    </Container>
  );
}
