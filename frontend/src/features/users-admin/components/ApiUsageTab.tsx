import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { ApiStatisticTotals } from '../../../shared/api/generated/types.gen';
import { apiStatisticQueryOptions } from '../api/usersAdminApi';
import { ListError, ListLoading } from './ListStates';
import classes from './UsersAdmin.module.css';

const RANGES = [7, 30, 90] as const;
const TOTALS: readonly { key: keyof ApiStatisticTotals; label: 'sessions' | 'userSessions' | 'guestSessions' | 'activeUsers' | 'activities' }[] = [
  { key: 'sessions', label: 'sessions' },
  { key: 'user_sessions', label: 'userSessions' },
  { key: 'guest_sessions', label: 'guestSessions' },
  { key: 'active_users', label: 'activeUsers' },
  { key: 'activities', label: 'activities' },
];

/** The last `days` UTC days, today included, as YYYY-MM-DD. */
export function utcRange(days: number, now: Date = new Date()): { from: string; to: string } {
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const from = new Date(to.getTime() - (days - 1) * 86_400_000);
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}

/** GET /v2/users/get-api-statistic: the platform's sessions and activities over a period. */
export function ApiUsageTab() {
  const { t, i18n } = useTranslation();
  const [days, setDays] = useState<number>(30);
  const range = utcRange(days);
  const usage = useQuery(apiStatisticQueryOptions(range.from, range.to));
  const number = new Intl.NumberFormat(i18n.language);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed">
          {t('usersAdmin.usage.intro')}
        </Text>
        <SegmentedControl
          aria-label={t('usersAdmin.usage.range')}
          value={String(days)}
          onChange={(value) => setDays(Number(value))}
          data={RANGES.map((count) => ({ value: String(count), label: t('usersAdmin.usage.days', { count }) }))}
          data-testid="usage-range"
        />
      </Group>
      {usage.isPending ? (
        <ListLoading rows={3} testId="usage-loading" />
      ) : usage.isError ? (
        <ListError error={usage.error} onRetry={() => void usage.refetch()} testId="usage-error" />
      ) : (
        <Stack gap="lg" aria-busy={usage.isFetching}>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
            {TOTALS.map(({ key, label }) => (
              <Paper key={key} withBorder radius="md" p="sm" data-testid={`usage-total-${key}`}>
                <Text size="xs" c="dimmed">
                  {t(`usersAdmin.usage.${label}`)}
                </Text>
                <Text fw={700} size="xl">
                  {number.format(usage.data.totals[key])}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('usersAdmin.usage.byCode')}
            </Title>
            {usage.data.activity_codes.length === 0 ? (
              <Text c="dimmed" size="sm" data-testid="usage-no-activities">
                {t('usersAdmin.usage.noActivities')}
              </Text>
            ) : (
              <div className={classes.tableWrap}>
                <Table striped withTableBorder maw={520}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('usersAdmin.usage.code')}</Table.Th>
                      <Table.Th ta="right">{t('usersAdmin.usage.count')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {usage.data.activity_codes.map((code) => (
                      <Table.Tr key={code.activity_code}>
                        <Table.Td>{code.activity_code}</Table.Td>
                        <Table.Td ta="right">{number.format(code.count)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </div>
            )}
          </Stack>
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('usersAdmin.usage.perDay')}
            </Title>
            <div className={classes.tableWrap}>
              <Table striped withTableBorder data-testid="usage-days">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('usersAdmin.usage.day')}</Table.Th>
                    {TOTALS.map(({ key, label }) => (
                      <Table.Th key={key} ta="right">
                        {t(`usersAdmin.usage.${label}`)}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {[...usage.data.days].reverse().map((day) => (
                    <Table.Tr key={day.date}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{day.date}</Table.Td>
                      {TOTALS.map(({ key }) => (
                        <Table.Td key={key} ta="right">
                          {number.format(day[key])}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </div>
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}
