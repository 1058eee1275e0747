import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import '@mantine/charts/styles.css';
import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';

import { Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconChartAreaLine } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { useSession } from '../../../shared/auth/session';
import { PageShell } from '../../../shared/ui/PageShell';
import classes from '../components/Statistics.module.css';
import { StatisticsView } from '../components/StatisticsView';
import { parseRangeParams, type RangeChoice, writeRangeParams } from '../../../shared/stats/range';

/**
 * Spec §2 "statistics" (issue 14 part 6): what the platform gained per day, for admins. The range is
 * in the link (`?days=7`, `?from=…&to=…`), so a reload or a shared link shows the same days. The
 * chart and calendar packages (and their styles) come with this route only, not with the feed.
 */
export function StatisticsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const { choice, problem } = parseRangeParams(params);
  const change = useCallback(
    (next: RangeChoice) => setParams((current) => writeRangeParams(next, current), { replace: true }),
    [setParams],
  );

  if (session.role !== 'admin') {
    return (
      <div data-testid="statistics-admins-only" className={classes.contents}>
        <PageShell icon={<IconChartAreaLine size={28} />} title={t('statistics.title')} description={t('statistics.adminsOnly')} />
      </div>
    );
  }
  return (
    <Container size={1312} className={classes.page} data-testid="statistics-page">
      <Stack gap="lg">
        <Stack gap={4}>
          <Group gap="xs" wrap="nowrap">
            <IconChartAreaLine size={26} color="var(--mantine-color-brand-7)" aria-hidden="true" />
            <Title order={1} size="h2">
              {t('statistics.title')}
            </Title>
          </Group>
          <Text c="dimmed" size="sm" maw={720}>
            {t('statistics.description')}
          </Text>
        </Stack>
        <StatisticsView choice={choice} linkProblem={problem} onChange={change} />
      </Stack>
    </Container>
  );
}
