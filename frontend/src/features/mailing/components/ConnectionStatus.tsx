import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import type { PingOut } from '../../../shared/api/generated/types.gen';
import { pingQueryOptions } from '../api/mailingApi';

/** Whether the provider answers, takes the key and knows the list (GET ping). */
export function ConnectionStatus() {
  const { t } = useTranslation();
  const ping = useQuery(pingQueryOptions());
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="mailing-connection-title">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6}>
          <Title order={2} size="h4" id="mailing-connection-title">
            {t('mailingSync.connection.title')}
          </Title>
          {ping.isPending && <Text c="dimmed">{t('mailingSync.connection.checking')}</Text>}
          {ping.isError && <NotConnected error={ping.error} />}
          {ping.isSuccess && <Connected ping={ping.data} />}
        </Stack>
        <Button variant="default" size="xs" onClick={() => void ping.refetch()} loading={ping.isFetching}>
          {t('mailingSync.connection.check')}
        </Button>
      </Group>
    </Card>
  );
}

function Connected({ ping }: { ping: PingOut }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="mailing-connected">
      <Group gap="xs">
        <Badge color="green" variant="light">
          {t('mailingSync.connection.connected')}
        </Badge>
        <Text size="sm" c="dimmed">
          {ping.health_status}
        </Text>
      </Group>
      <Text>{t('mailingSync.connection.list', { name: ping.list_name, id: ping.list_id })}</Text>
      <Text size="sm" c="dimmed">
        {t('mailingSync.connection.members', { count: ping.member_count })}
      </Text>
    </Stack>
  );
}

function NotConnected({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="mailing-not-connected">
      <Badge color="red" variant="light">
        {t('mailingSync.connection.notConnected')}
      </Badge>
      <Text role="alert">{errorMessage(error, t('mailingSync.connection.failed'))}</Text>
    </Stack>
  );
}
