import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Badge, Button, Group, Paper, Progress, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconRefresh, IconSparkles } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { AdminCategoryOut, AdminMediaTypeOut, AdminTagOut, TagCreate, TagTopicType, TagUpdate } from '../../../shared/api/generated/types.gen';
import {
  allCategoriesQueryOptions,
  allMediaTypesQueryOptions,
  embeddingJobQueryOptions,
  saveTag,
  startTagEmbeddings,
  tagsQueryOptions,
  type TopicFilter,
} from '../api/classificationsApi';
import { classificationsQueryKeys } from '../api/queryKeys';
import { useEditorSave } from '../api/useEditorSave';
import { useActiveToggle, useListState } from '../api/useListState';
import { DESCRIPTION_MAX, nameProblem, namesOf, translationsPayload } from '../model/names';
import classes from './Classifications.module.css';
import { ActiveField, EditorModal, FormFooter, NameFields } from './EditorModal';
import { ActiveSwitch, EditButton, ListBody, ListProblem, ListToolbar } from './ListParts';
import { type Column, ResponsiveTable } from './ResponsiveTable';

const topicValue = (type: TagTopicType, id: number) => `${type}:${id}`;

function parseTopic(value: string | null): TopicFilter | null {
  if (!value) return null;
  const [type, id] = value.split(':');
  return (type === 'category' || type === 'media_type') && id ? { type, id: Number(id) } : null;
}

function topicGroups(categories: readonly AdminCategoryOut[], mediaTypes: readonly AdminMediaTypeOut[], groupNames: { category: string; media_type: string }) {
  return [
    { group: groupNames.category, items: categories.map((row) => ({ value: topicValue('category', row.id), label: row.name })) },
    { group: groupNames.media_type, items: mediaTypes.map((row) => ({ value: topicValue('media_type', row.id), label: row.name })) },
  ];
}

/** Tags with their topic (a category or a media type), description, embedding state and active switch. */
export function TagsTab() {
  const { t } = useTranslation();
  const list = useListState();
  const [topic, setTopic] = useState<TopicFilter | null>(null);
  const categories = useQuery(allCategoriesQueryOptions());
  const mediaTypes = useQuery(allMediaTypesQueryOptions());
  const query = useQuery(tagsQueryOptions({ ...list.params, topic }));
  const [editing, setEditing] = useState<{ row: AdminTagOut | null } | null>(null);
  const toggle = useActiveToggle<AdminTagOut>((row, active) => saveTag({ id: row.id, is_active: active }), (row) => row.name);
  const groupNames = { category: t('classifications.tags.topicCategory'), media_type: t('classifications.tags.topicMediaType') };
  const topicName = (row: AdminTagOut) => {
    const rows: readonly { id: number; name: string }[] = (row.topic_type === 'media_type' ? mediaTypes.data : categories.data) ?? [];
    const name = rows.find((item) => item.id === row.topic_id)?.name ?? `#${row.topic_id}`;
    return `${row.topic_type === 'media_type' ? groupNames.media_type : groupNames.category}: ${name}`;
  };
  const columns: Column<AdminTagOut>[] = [
    { key: 'name', label: t('classifications.columns.name'), primary: true, render: (row) => row.name },
    { key: 'ru', label: t('classifications.columns.nameRu'), render: (row) => <span lang="ru">{row.translations.ru ?? '—'}</span> },
    { key: 'topic', label: t('classifications.columns.topic'), render: topicName },
    {
      key: 'description',
      label: t('classifications.columns.description'),
      render: (row) => (
        <Text size="sm" lineClamp={2}>
          {row.description || '—'}
        </Text>
      ),
    },
    {
      key: 'embedding',
      label: t('classifications.columns.embedding'),
      render: (row) => (
        <Badge variant="light" color={row.embedded ? 'teal' : 'gray'} radius="sm">
          {row.embedded ? t('classifications.tags.embedded') : t('classifications.tags.notEmbedded')}
        </Badge>
      ),
    },
    { key: 'uses', label: t('classifications.columns.uses'), numeric: true, render: (row) => row.uses },
    {
      key: 'active',
      label: t('classifications.columns.active'),
      render: (row) => <ActiveSwitch name={row.name} active={row.is_active} busy={toggle.busyId === row.id} onChange={(active) => toggle.toggle(row, row.id, active)} />,
    },
    { key: 'actions', label: t('classifications.columns.actions'), inHeading: true, render: (row) => <EditButton name={row.name} onClick={() => setEditing({ row })} /> },
  ];
  return (
    <Stack gap="md">
      <EmbeddingsPanel />
      <ListToolbar search={list.searchText} onSearch={list.setSearch} active={list.params.active} onActive={list.setActive} onAdd={() => setEditing({ row: null })} testId="tags">
        <Select
          className={classes.filter}
          label={t('classifications.tags.filterTopic')}
          placeholder={t('classifications.tags.filterAll')}
          data={topicGroups(categories.data ?? [], mediaTypes.data ?? [], groupNames)}
          value={topic ? topicValue(topic.type, topic.id) : null}
          onChange={(value) => {
            setTopic(parseTopic(value));
            list.firstPage();
          }}
          searchable
          clearable
          data-testid="tags-topic"
        />
      </ListToolbar>
      <ListProblem message={toggle.problem} onClose={toggle.clearProblem} testId="tags" />
      <ListBody
        loading={query.isPending}
        error={query.error}
        onRetry={() => void query.refetch()}
        total={query.data?.total_items ?? 0}
        searching={list.params.search !== '' || list.params.active !== 'all' || topic !== null}
        page={list.params.page}
        onPage={list.setPage}
        testId="tags"
      >
        <ResponsiveTable rows={query.data?.data ?? []} columns={columns} rowKey={(row) => row.id} caption={t('classifications.tabs.tags')} testId="tag-row" minWidth={900} />
      </ListBody>
      <EditorModal opened={editing !== null} onClose={() => setEditing(null)} title={t(editing?.row ? 'classifications.form.titles.editTag' : 'classifications.form.titles.newTag')}>
        {editing && <TagForm row={editing.row} categories={categories.data ?? []} mediaTypes={mediaTypes.data ?? []} onDone={() => setEditing(null)} />}
      </EditorModal>
    </Stack>
  );
}

/** The latest recompute of every tag's embedding, and the button that starts one. */
function EmbeddingsPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const job = useQuery(embeddingJobQueryOptions());
  const [problem, setProblem] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: startTagEmbeddings,
    onMutate: () => setProblem(null),
    onSuccess: (outcome) => {
      if (outcome.kind === 'saved') {
        queryClient.setQueryData(classificationsQueryKeys.embeddings, { message: outcome.message, data: outcome.data });
        notifications.show({ color: 'teal', message: t('classifications.tags.recomputeStarted') });
        return;
      }
      setProblem(outcome.message ?? t('classifications.tags.recomputeFailed'));
    },
    onError: () => setProblem(t('classifications.tags.recomputeFailed')),
  });
  const run = job.data?.data ?? null;
  const underWay = run?.status === 'queued' || run?.status === 'running';
  return (
    <Paper withBorder radius="md" p="md" data-testid="embeddings-panel">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="xs">
            <IconSparkles size={18} aria-hidden="true" color="var(--mantine-color-brand-7)" />
            <Text fw={600}>{t('classifications.tags.embeddings')}</Text>
          </Group>
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} aria-hidden="true" />}
            onClick={() => start.mutate()}
            aria-busy={start.isPending || underWay}
            disabled={underWay}
            data-testid="embeddings-start"
          >
            {t('classifications.tags.recompute')}
          </Button>
        </Group>
        <div aria-live="polite" data-testid="embeddings-state" data-status={run?.status ?? 'none'}>
          {job.isError ? (
            <Text size="sm" c="red.8">
              {t('classifications.tags.jobFailedToLoad')}
            </Text>
          ) : run === null ? (
            <Text size="sm" c="dimmed">
              {job.isPending ? t('page.loading') : t('classifications.tags.jobNone')}
            </Text>
          ) : (
            <Stack gap={6}>
              <Text size="sm">
                {t('classifications.tags.jobState', { status: t(`classifications.tags.jobStatuses.${run.status}`), done: run.done, total: run.total })}
              </Text>
              {underWay && <Progress value={run.total > 0 ? (run.done / run.total) * 100 : 0} animated size="sm" aria-label={t('classifications.tags.embeddings')} />}
              {run.message && (
                <Text size="sm" c={run.status === 'failed' ? 'red.8' : 'dimmed'}>
                  {t('classifications.tags.jobMessage', { message: run.message })}
                </Text>
              )}
            </Stack>
          )}
        </div>
        {problem && (
          <Alert color="red" variant="light" radius="md" role="alert" data-testid="embeddings-problem">
            {problem}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

interface TagValues {
  name: string;
  name_ru: string;
  description: string;
  topic_type: TagTopicType;
  topic_id: string | null;
  is_active: boolean;
}

const FIELDS = ['name', 'name_ru', 'description', 'topic_id', 'topic_type', 'is_active'] as const;

function TagForm({
  row,
  categories,
  mediaTypes,
  onDone,
}: {
  row: AdminTagOut | null;
  categories: readonly AdminCategoryOut[];
  mediaTypes: readonly AdminMediaTypeOut[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<TagValues>({
    mode: 'controlled',
    initialValues: {
      ...namesOf(row, row?.name ?? ''),
      description: row?.description ?? '',
      topic_type: (row?.topic_type as TagTopicType | undefined) ?? 'category',
      topic_id: row ? String(row.topic_id) : null,
      is_active: row?.is_active ?? true,
    },
    validate: {
      name: (value) => (nameProblem(value) ? t('classifications.form.required') : null),
      topic_id: (value) => (value ? null : t('classifications.tags.topicRequired')),
    },
  });
  const toBody = (values: TagValues): TagCreate | TagUpdate => {
    const translations = translationsPayload(values, row);
    const topicId = Number(values.topic_id);
    const description = values.description.trim();
    if (row === null) {
      return { name: values.name.trim(), translations, description: description || undefined, topic_type: values.topic_type, topic_id: topicId, is_active: values.is_active };
    }
    const topicChanged = topicId !== row.topic_id || values.topic_type !== row.topic_type;
    return {
      id: row.id,
      name: values.name.trim(),
      translations,
      description: description !== (row.description ?? '') ? description : undefined,
      topic_type: topicChanged ? values.topic_type : undefined,
      topic_id: topicChanged ? topicId : undefined,
      is_active: values.is_active !== row.is_active ? values.is_active : undefined,
    };
  };
  const editor = useEditorSave({ form, toBody, save: saveTag, fields: FIELDS, creating: row === null, nameOf: (saved) => saved.name, onSaved: onDone });
  const topics = form.values.topic_type === 'media_type' ? mediaTypes : categories;
  return (
    <form onSubmit={editor.submit} noValidate data-testid="tag-form">
      <Stack gap="md">
        <NameFields form={form} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="tag-topic-type">
            {t('classifications.tags.topicType')}
          </Text>
          <SegmentedControl
            aria-labelledby="tag-topic-type"
            data={[
              { value: 'category', label: t('classifications.tags.topicCategory') },
              { value: 'media_type', label: t('classifications.tags.topicMediaType') },
            ]}
            value={form.values.topic_type}
            onChange={(value) => form.setValues({ topic_type: value as TagTopicType, topic_id: null })}
            data-testid="form-topic-type"
          />
        </Stack>
        <Select
          label={t('classifications.tags.topic')}
          placeholder={t('classifications.tags.topicPlaceholder')}
          data={topics.filter((topic) => topic.is_active || String(topic.id) === form.values.topic_id).map((topic) => ({ value: String(topic.id), label: topic.name }))}
          searchable
          withAsterisk
          allowDeselect={false}
          data-testid="form-topic"
          {...form.getInputProps('topic_id')}
        />
        <Textarea
          label={t('classifications.tags.description')}
          description={t('classifications.tags.descriptionHint')}
          autosize
          minRows={2}
          maxRows={6}
          maxLength={DESCRIPTION_MAX}
          data-testid="form-description"
          {...form.getInputProps('description')}
        />
        <ActiveField form={form} />
        <FormFooter problem={editor.problem} saving={editor.saving} onCancel={onDone} />
      </Stack>
    </form>
  );
}
