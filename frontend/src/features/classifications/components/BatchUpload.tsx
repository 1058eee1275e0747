import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Anchor, Badge, Button, FileInput, Group, Paper, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCircleCheck, IconDownload, IconFileSpreadsheet, IconListCheck, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { BatchRowOut, BatchUploadAnswer } from '../../../shared/api/generated/types.gen';
import { uploadBatch } from '../api/classificationsApi';
import { classificationsPrefix } from '../api/queryKeys';
import { BATCH_ACCEPT, BATCH_COLUMNS, batchFileProblem, type BatchKind, batchPhase, batchTemplate, reportRows } from '../model/batch';
import classes from './Classifications.module.css';
import { type Column, ResponsiveTable } from './ResponsiveTable';

/**
 * Spec §7 admin-batch-upload: pick a CSV or XLSX file of tags or of categories, check it (a dry run
 * answers the per-row report, bad rows marked), then apply it. The server applies every row or none.
 */
export function BatchUpload() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<BatchKind>('categories');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<BatchUploadAnswer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const templateUrl = useTemplateUrl(kind);

  const upload = useMutation({
    mutationFn: ({ picked, dryRun }: { picked: File; dryRun: boolean }) => uploadBatch(picked, dryRun),
    onMutate: () => setProblem(null),
    onSuccess: (outcome) => {
      if (outcome.kind === 'saved') {
        setAnswer(outcome.data);
        if (outcome.data.applied) {
          void queryClient.invalidateQueries({ queryKey: classificationsPrefix });
          notifications.show({ color: 'teal', message: t('classifications.batch.appliedTitle') });
        }
        return;
      }
      setAnswer(null);
      if (outcome.kind === 'refused' && outcome.fields.file) setFileError(outcome.fields.file);
      else setProblem(outcome.message ?? t('classifications.batch.failed'));
    },
    onError: () => setProblem(t('classifications.batch.failed')),
  });

  const pick = (picked: File | null) => {
    setFile(picked);
    setAnswer(null);
    setProblem(null);
    const wrong = picked ? batchFileProblem(picked) : null;
    setFileError(wrong === 'type' ? t('classifications.batch.fileType') : wrong === 'size' ? t('classifications.batch.fileSize') : null);
  };
  const send = (dryRun: boolean) => {
    if (!file) {
      setFileError(t('classifications.batch.fileRequired'));
      return;
    }
    if (fileError) return;
    upload.mutate({ picked: file, dryRun });
  };
  // A file passes a dry run before it may be applied; a new pick asks for a new check.
  const canApply = answer !== null && batchPhase(answer) === 'checked' && !upload.isPending;

  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed" maw={760}>
        {t('classifications.batch.intro')}
      </Text>
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="batch-kind">
              {t('classifications.batch.kind')}
            </Text>
            <SegmentedControl
              aria-labelledby="batch-kind"
              value={kind}
              onChange={(value) => setKind(value as BatchKind)}
              data={[
                { value: 'categories', label: t('classifications.batch.kinds.categories') },
                { value: 'tags', label: t('classifications.batch.kinds.tags') },
              ]}
              data-testid="batch-kind"
              style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
            />
            <Text size="sm" c="dimmed">
              {t('classifications.batch.columns', { columns: BATCH_COLUMNS[kind].join(', ') })}
            </Text>
            {templateUrl && (
              <Anchor href={templateUrl} download={`${kind}-template.csv`} size="sm" data-testid="batch-template">
                <Group gap={6} component="span" wrap="nowrap">
                  <IconDownload size={16} aria-hidden="true" />
                  {t('classifications.batch.template')}
                </Group>
              </Anchor>
            )}
          </Stack>
          <FileInput
            label={t('classifications.batch.file')}
            placeholder={t('classifications.batch.filePlaceholder')}
            accept={BATCH_ACCEPT}
            value={file}
            onChange={pick}
            clearable
            leftSection={<IconFileSpreadsheet size={16} aria-hidden="true" />}
            error={fileError}
            data-testid="batch-file"
          />
          <Group gap="sm">
            <Button
              variant="light"
              leftSection={<IconListCheck size={16} aria-hidden="true" />}
              onClick={() => send(true)}
              loading={upload.isPending && upload.variables.dryRun}
              disabled={upload.isPending && !upload.variables.dryRun}
              data-testid="batch-check"
            >
              {t('classifications.batch.check')}
            </Button>
            <Button
              leftSection={<IconUpload size={16} aria-hidden="true" />}
              onClick={() => send(false)}
              disabled={!canApply}
              loading={upload.isPending && !upload.variables.dryRun}
              data-testid="batch-apply"
            >
              {t('classifications.batch.apply')}
            </Button>
          </Group>
          {problem && (
            <Alert color="red" variant="light" radius="md" role="alert" icon={<IconAlertTriangle size={18} />} data-testid="batch-problem">
              {problem}
            </Alert>
          )}
        </Stack>
      </Paper>
      {answer && <BatchReport answer={answer} />}
    </Stack>
  );
}

/** A download link of the kind's CSV template (an object URL, released when it changes). */
function useTemplateUrl(kind: BatchKind): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function') return undefined;
    const next = URL.createObjectURL(new Blob([batchTemplate(kind)], { type: 'text/csv;charset=utf-8' }));
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [kind]);
  return url;
}

/** The server's answer: what it means, the counts, and every row with the bad ones marked. */
export function BatchReport({ answer }: { answer: BatchUploadAnswer }) {
  const { t } = useTranslation();
  const phase = batchPhase(answer);
  const [onlyErrors, setOnlyErrors] = useState(false);
  const rows = useMemo(() => reportRows(answer.report, onlyErrors && phase === 'refused'), [answer.report, onlyErrors, phase]);
  const statusTexts = answer.applied ? 'appliedStatuses' : 'statuses';
  const columns: Column<BatchRowOut>[] = [
    { key: 'row', label: t('classifications.batch.row'), primary: true, render: (row) => `${t('classifications.batch.row')} ${row.row}` },
    {
      key: 'status',
      label: t('classifications.batch.outcome'),
      render: (row) => (
        <Badge variant={row.status === 'error' ? 'filled' : 'light'} color={row.status === 'error' ? 'red.8' : row.status === 'created' ? 'teal' : 'blue'} radius="sm">
          {t(`classifications.batch.${statusTexts}.${row.status}`)}
        </Badge>
      ),
    },
    { key: 'kind', label: t('classifications.batch.kindColumn'), render: (row) => row.kind ?? '—' },
    {
      key: 'message',
      label: t('classifications.batch.message'),
      render: (row) => (
        <Stack gap={2}>
          <Text size="sm" c={row.status === 'error' ? 'red.9' : undefined} data-testid="batch-row-message">
            {row.message}
          </Text>
          {row.field && (
            <Text size="xs" c="dimmed">
              {t('classifications.batch.column', { field: row.field })}
            </Text>
          )}
        </Stack>
      ),
    },
  ];
  const tone = phase === 'refused' ? { color: 'red', icon: <IconAlertTriangle size={20} />, title: t('classifications.batch.refusedTitle'), text: t('classifications.batch.refusedText') } : phase === 'checked' ? { color: 'blue', icon: <IconListCheck size={20} />, title: t('classifications.batch.checkedTitle'), text: t('classifications.batch.checkedText') } : { color: 'teal', icon: <IconCircleCheck size={20} />, title: t('classifications.batch.appliedTitle'), text: null };
  return (
    <Stack gap="sm" data-testid="batch-report" data-phase={phase} data-errors={answer.errors}>
      <Title order={2} size="h4">
        {t('classifications.batch.report')}
      </Title>
      <Alert color={tone.color} variant="light" radius="md" icon={tone.icon} title={tone.title} role="status" data-testid="batch-outcome">
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {answer.applied
              ? t('classifications.batch.appliedSummary', { created: answer.created, updated: answer.updated })
              : t('classifications.batch.summary', { created: answer.created, updated: answer.updated, errors: answer.errors })}
          </Text>
          {tone.text && <Text size="sm">{tone.text}</Text>}
        </Stack>
      </Alert>
      {phase === 'refused' && (
        <Switch label={t('classifications.batch.onlyErrors')} checked={onlyErrors} onChange={(event) => setOnlyErrors(event.currentTarget.checked)} data-testid="batch-only-errors" />
      )}
      <ResponsiveTable
        rows={rows}
        columns={columns}
        rowKey={(row) => row.row}
        caption={t('classifications.batch.report')}
        testId="batch-row"
        minWidth={560}
        rowProps={(row) => (row.status === 'error' ? { className: classes.errorRow, 'data-status': 'error' } : { 'data-status': row.status })}
      />
    </Stack>
  );
}
