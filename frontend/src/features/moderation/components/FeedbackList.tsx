import '../../../shared/i18n/supportTexts'; // the feedback lists' English texts
import { Alert, Anchor, Button, Center, Group, Image, Loader, Pagination, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import {
  BUG_STATUSES,
  type BugReport,
  bugReportsQueryOptions,
  FEATURE_STATUSES,
  FEEDBACK_PAGE_SIZE,
  type FeatureRequest,
  featureRequestsQueryOptions,
  useSetBugStatus,
  useSetFeatureStatus,
} from '../api/feedbackApi';
import type { FeedbackKind } from '../model/tabs';

/** The bug reports or feature requests tab: newest first, each with its status for the admin to set. */
export function FeedbackList({ kind }: { kind: FeedbackKind }) {
  return kind === 'bugs' ? <BugReports /> : <FeatureRequests />;
}

function BugReports() {
  const [page, setPage] = useState(1);
  const list = useQuery(bugReportsQueryOptions((page - 1) * FEEDBACK_PAGE_SIZE));
  return (
    <ListFrame kind="bugs" list={list} total={list.data?.total_items ?? 0} page={page} onPage={setPage}>
      {list.data?.data.map((report) => <BugRow key={report.id} report={report} />)}
    </ListFrame>
  );
}

function FeatureRequests() {
  const [page, setPage] = useState(1);
  const list = useQuery(featureRequestsQueryOptions((page - 1) * FEEDBACK_PAGE_SIZE));
  return (
    <ListFrame kind="features" list={list} total={list.data?.total_items ?? 0} page={page} onPage={setPage}>
      {list.data?.data.map((request) => <FeatureRow key={request.id} request={request} />)}
    </ListFrame>
  );
}

interface ListFrameProps {
  kind: FeedbackKind;
  list: { isPending: boolean; isError: boolean; refetch: () => Promise<unknown> };
  total: number;
  page: number;
  onPage: (page: number) => void;
  children: ReactNode;
}

/** Loading, failure and empty states, the rows and the pages. */
function ListFrame({ kind, list, total, page, onPage, children }: ListFrameProps) {
  const { t } = useTranslation();
  if (list.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={t('page.loading')} />
      </Center>
    );
  }
  if (list.isError) {
    return (
      <Alert color="red" title={t('feedback.loadFailed')}>
        <Button size="xs" variant="light" color="red" onClick={() => void list.refetch()}>
          {t('feedback.retry')}
        </Button>
      </Alert>
    );
  }
  if (total === 0) return <Text c="dimmed">{t('feedback.empty')}</Text>;
  const pages = Math.max(1, Math.ceil(total / FEEDBACK_PAGE_SIZE));
  return (
    <Stack gap="sm" data-testid={`feedback-${kind}`}>
      {children}
      {pages > 1 && <Pagination total={pages} value={page} onChange={onPage} />}
    </Stack>
  );
}

function Byline({ username, createdAt }: { username: string | null; createdAt: string }) {
  const { t, i18n } = useTranslation();
  const date = new Date(createdAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Text size="xs" c="dimmed">
      {t('feedback.from', { name: username ?? t('feedback.anonymous'), date })}
    </Text>
  );
}

function BugRow({ report }: { report: BugReport }) {
  const { t } = useTranslation();
  const setStatus = useSetBugStatus();
  return (
    <Paper withBorder radius="md" p="sm" data-testid="bug-report-row">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 280px', minWidth: 0 }}>
          <Title order={3} size="h5">
            {report.title}
          </Title>
          <Byline username={report.username} createdAt={report.created_at} />
          {report.description && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {report.description}
            </Text>
          )}
          {report.page_url && (
            <Text size="xs" c="dimmed" truncate>
              {t('feedback.page')}: {report.page_url}
            </Text>
          )}
          <Group gap="xs">
            {report.images.map((image, index) => (
              <Anchor key={image.path} href={image.path} target="_blank" rel="noopener noreferrer">
                <Image src={image.path} alt={t('feedback.screenshot', { number: index + 1 })} w={120} h={72} fit="cover" radius="sm" />
              </Anchor>
            ))}
          </Group>
        </Stack>
        <Select
          w={170}
          label={t('feedback.status')}
          data={BUG_STATUSES.map((status) => ({ value: status, label: t(`feedback.bugStatus.${status}`) }))}
          value={report.status}
          allowDeselect={false}
          disabled={setStatus.isPending}
          onChange={(value) => {
            const status = BUG_STATUSES.find((known) => known === value);
            if (status) setStatus.mutate({ id: report.id, status }, statusOutcome(t));
          }}
          data-testid="bug-status"
        />
      </Group>
    </Paper>
  );
}

function FeatureRow({ request }: { request: FeatureRequest }) {
  const { t } = useTranslation();
  const setStatus = useSetFeatureStatus();
  return (
    <Paper withBorder radius="md" p="sm" data-testid="feature-request-row">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 280px', minWidth: 0 }}>
          <Title order={3} size="h5">
            {request.title}
          </Title>
          <Byline username={request.username} createdAt={request.created_at} />
          {request.description && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {request.description}
            </Text>
          )}
        </Stack>
        <Select
          w={170}
          label={t('feedback.status')}
          data={FEATURE_STATUSES.map((status) => ({ value: status, label: t(`feedback.featureStatus.${status}`) }))}
          value={request.status}
          allowDeselect={false}
          disabled={setStatus.isPending}
          onChange={(value) => {
            const status = FEATURE_STATUSES.find((known) => known === value);
            if (status) setStatus.mutate({ id: request.id, status }, statusOutcome(t));
          }}
          data-testid="feature-status"
        />
      </Group>
    </Paper>
  );
}

function statusOutcome(t: (key: 'feedback.statusSaved' | 'feedback.statusFailed') => string) {
  return {
    onSuccess: () => notifications.show({ color: 'teal', message: t('feedback.statusSaved') }),
    onError: (error: unknown) => notifications.show({ color: 'red', message: errorMessage(error, t('feedback.statusFailed')) }),
  };
}
