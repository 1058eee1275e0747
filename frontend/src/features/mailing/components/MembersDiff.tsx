import { Alert, Badge, Button, Card, Group, Pagination, Skeleton, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import type { DiffSide, MembersDiffOut } from '../../../shared/api/generated/types.gen';
import { DIFF_PAGE_SIZE, membersDiffQueryOptions } from '../api/mailingApi';
import classes from './Mailing.module.css';

type SideName = 'toSubscribe' | 'toUnsubscribe';

/** Both ways of the diff (GET members-diff): counts, and each side's people paged on its own. */
export function MembersDiff() {
  const { t } = useTranslation();
  const [offsets, setOffsets] = useState<Record<SideName, number>>({ toSubscribe: 0, toUnsubscribe: 0 });
  // One query per side's page; at the same offset they are one request.
  const subscribe = useQuery(membersDiffQueryOptions(offsets.toSubscribe));
  const unsubscribe = useQuery(membersDiffQueryOptions(offsets.toUnsubscribe));
  const failed = subscribe.error ?? unsubscribe.error;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="mailing-diff-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="mailing-diff-title">
          {t('mailingSync.diff.title')}
        </Title>
        {failed ? (
          <DiffError error={failed} onRetry={() => void Promise.all([subscribe.refetch(), unsubscribe.refetch()])} />
        ) : !subscribe.data || !unsubscribe.data ? (
          <Skeleton height={120} radius="md" aria-busy="true" aria-label={t('page.loading')} />
        ) : (
          <DiffBody
            summary={subscribe.data}
            sides={{ toSubscribe: subscribe.data.to_subscribe, toUnsubscribe: unsubscribe.data.to_unsubscribe }}
            offsets={offsets}
            onOffset={(side, offset) => setOffsets((current) => ({ ...current, [side]: offset }))}
          />
        )}
      </Stack>
    </Card>
  );
}

interface DiffBodyProps {
  summary: MembersDiffOut;
  sides: Record<SideName, DiffSide>;
  offsets: Record<SideName, number>;
  onOffset: (side: SideName, offset: number) => void;
}

function DiffBody({ summary, sides, offsets, onOffset }: DiffBodyProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Group gap="lg">
        <Text size="sm">{t('mailingSync.diff.consenting', { count: summary.consenting })}</Text>
        <Text size="sm">{t('mailingSync.diff.subscribed', { count: summary.subscribed })}</Text>
      </Group>
      {summary.in_step ? (
        <Alert color="green" variant="light" radius="md" icon={<IconCircleCheck size={20} />} data-testid="mailing-in-step">
          {t('mailingSync.diff.inStep')}
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {(['toSubscribe', 'toUnsubscribe'] as const).map((side) => (
            <DiffColumn key={side} side={side} page={sides[side]} offset={offsets[side]} onOffset={(offset) => onOffset(side, offset)} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

interface DiffColumnProps {
  side: SideName;
  page: DiffSide;
  offset: number;
  onOffset: (offset: number) => void;
}

function DiffColumn({ side, page, offset, onOffset }: DiffColumnProps) {
  const { t } = useTranslation();
  const title = t(`mailingSync.diff.${side}`);
  const pages = Math.ceil(page.total_items / DIFF_PAGE_SIZE);
  return (
    <Stack gap="xs" data-testid={`mailing-${side}`}>
      <Group gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Badge variant="light" color={side === 'toSubscribe' ? 'blue' : 'orange'}>
          {t('mailingSync.diff.people', { count: page.total_items })}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed">
        {t(`mailingSync.diff.${side}Hint`)}
      </Text>
      {page.data.length === 0 ? (
        <Text c="dimmed">{t('mailingSync.diff.nobody')}</Text>
      ) : (
        <ul className={classes.people} aria-label={title}>
          {page.data.map((person) => (
            <li key={person.email} className={classes.person}>
              <Text className={classes.email}>{person.email}</Text>
              {(person.first_name || person.last_name) && (
                <Text size="sm" c="dimmed">
                  {[person.first_name, person.last_name].filter(Boolean).join(' ')}
                </Text>
              )}
            </li>
          ))}
        </ul>
      )}
      {pages > 1 && (
        <Pagination
          size="sm"
          total={pages}
          value={Math.floor(offset / DIFF_PAGE_SIZE) + 1}
          onChange={(pageNumber) => onOffset((pageNumber - 1) * DIFF_PAGE_SIZE)}
          aria-label={t('mailingSync.diff.pages', { side: title })}
        />
      )}
    </Stack>
  );
}

function DiffError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle size={20} />} title={t('mailingSync.diff.failed')} data-testid="mailing-diff-error">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorMessage(error, t('mailingSync.diff.failed'))}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
