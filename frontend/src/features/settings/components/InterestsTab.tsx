import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { ActionIcon, Alert, Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import { usersGetUserInterests, usersPutUserInterests } from '../../../shared/api/generated/sdk.gen';
import type { CategoryOut, InterestOut } from '../../../shared/api/generated/types.gen';
import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';
import { categoriesQueryOptions } from '../../../shared/dictionaries/queries';
import { settingsQueryKeys } from '../api/queryKeys';
import {
  addInterest,
  canAddInterest,
  interestProblems,
  interestRows,
  interestsAreValid,
  interestsPayload,
  MAX_INTERESTS,
  removeInterest,
  setInterestCategory,
  type InterestRow,
} from '../model/interests';
import { TabLoading } from './SettingsStates';

/** Settings → Interests: up to 20 categories (GET/PUT user-interests); "For You" is built from them. */
export function InterestsTab() {
  // The category strip's query: one request serves both.
  const categories = useQuery(categoriesQueryOptions());
  const interests = useQuery({
    queryKey: settingsQueryKeys.interests,
    queryFn: async ({ signal }) => (await usersGetUserInterests({ signal, throwOnError: true })).data.data,
  });
  if (categories.data && interests.data) return <InterestsEditor categories={categories.data} saved={interests.data} />;
  return (
    <TabLoading
      error={categories.error ?? interests.error}
      onRetry={() => {
        void categories.refetch();
        void interests.refetch();
      }}
    />
  );
}

function InterestsEditor({ categories, saved }: { categories: CategoryOut[]; saved: InterestOut[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<InterestRow[]>(() => interestRows(saved.map((interest) => interest.category_id)));
  const [showProblems, setShowProblems] = useState(false);
  const problems = interestProblems(rows);
  const options = categories.map((category) => ({ value: String(category.id), label: category.name }));

  const mutation = useMutation({
    mutationFn: async () => (await usersPutUserInterests({ body: interestsPayload(rows), throwOnError: true })).data.data,
    onSuccess: (stored) => {
      queryClient.setQueryData(settingsQueryKeys.interests, stored);
      // "For You" is built from the interests: let it ask again.
      void queryClient.invalidateQueries({ queryKey: discoveryQueryKeys.filteredGrids });
      notifications.show({ color: 'teal', message: t('settings.interests.saved') });
    },
  });

  const save = () => {
    setShowProblems(true);
    if (interestsAreValid(rows)) mutation.mutate();
  };

  return (
    <Stack gap="sm" data-testid="interests-editor">
      <Text size="sm" c="dimmed">
        {t('settings.interests.intro', { max: MAX_INTERESTS })}
      </Text>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600} aria-live="polite">
          {t('settings.interests.chosen', { count: rows.length })}
        </Text>
        <Badge variant="light" size="lg" radius="sm" data-testid="interests-count">
          {rows.length} / {MAX_INTERESTS}
        </Badge>
      </Group>
      {mutation.error && (
        <Alert color="red" variant="light" radius="md" role="alert">
          {errorMessage(mutation.error, t('auth.errors.generic'))}
        </Alert>
      )}
      {rows.length === 0 && (
        <Text size="sm" ta="center" py="md" c="dimmed">
          {t('settings.interests.empty')}
        </Text>
      )}
      {rows.map((row, index) => {
        const problem = showProblems || row.categoryId !== null ? problems[index] : null;
        return (
          <Group key={row.key} gap="xs" align="flex-start" wrap="nowrap">
            <Select
              flex={1}
              data={options}
              value={row.categoryId === null ? null : String(row.categoryId)}
              onChange={(value) => setRows((current) => setInterestCategory(current, row.key, value === null ? null : Number(value)))}
              placeholder={t('settings.interests.choose')}
              aria-label={t('settings.interests.rowLabel', { number: index + 1 })}
              searchable
              nothingFoundMessage={t('settings.interests.nothingFound')}
              error={problem && t(`settings.interests.errors.${problem}`)}
              comboboxProps={{ withinPortal: true }}
              data-testid="interest-select"
            />
            <ActionIcon
              variant="subtle"
              color="gray"
              size={36}
              onClick={() => setRows((current) => removeInterest(current, row.key))}
              aria-label={t('settings.interests.remove', { number: index + 1 })}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Group>
        );
      })}
      <Group justify="space-between" mt="xs" wrap="wrap" gap="xs">
        <Button
          variant="light"
          radius="xl"
          leftSection={<IconPlus size={16} />}
          onClick={() => setRows((current) => addInterest(current))}
          disabled={!canAddInterest(rows)}
          data-testid="interest-add"
        >
          {t('settings.interests.add')}
        </Button>
        <Button radius="xl" onClick={save} loading={mutation.isPending} data-testid="interests-save">
          {t('settings.interests.save')}
        </Button>
      </Group>
      {!canAddInterest(rows) && (
        <Text size="xs" c="dimmed" role="status">
          {t('settings.interests.limit', { max: MAX_INTERESTS })}
        </Text>
      )}
    </Stack>
  );
}
