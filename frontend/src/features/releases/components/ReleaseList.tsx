import { Alert, Badge, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import { type Release, releasesQueryOptions, useDeleteRelease } from '../api/releasesApi';
import { ITEM_LISTS, type ItemList } from '../model/releaseForm';
import classes from './Updates.module.css';

const SECTION_COLOURS: Record<ItemList, string> = {
  listNewItems: 'teal',
  listImprovedItems: 'blue',
  listFixedItems: 'grape',
  listComingSoonItems: 'orange',
};

interface ReleaseListProps {
  editable: boolean;
  onCreate: () => void;
  onEdit: (release: Release) => void;
}

export function ReleaseList({ editable, onCreate, onEdit }: ReleaseListProps) {
  const { t } = useTranslation();
  const releases = useQuery(releasesQueryOptions());
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text c="dimmed" size="sm">
          {t('updates.intro')}
        </Text>
        {editable && (
          <Button size="xs" radius="xl" leftSection={<IconPlus size={14} />} onClick={onCreate} data-testid="release-add">
            {t('updates.add')}
          </Button>
        )}
      </Group>
      {releases.isPending && <Loader size="sm" mx="auto" aria-label={t('page.loading')} />}
      {releases.isError && (
        <Alert color="red" title={t('updates.loadFailed')}>
          <Button size="xs" variant="light" color="red" onClick={() => void releases.refetch()}>
            {t('updates.retry')}
          </Button>
        </Alert>
      )}
      {releases.data?.length === 0 && <Text c="dimmed">{t('updates.empty')}</Text>}
      {releases.data?.map((release) => (
        <ReleaseNotes key={release.id} release={release} editable={editable} onEdit={() => onEdit(release)} />
      ))}
    </Stack>
  );
}

function ReleaseNotes({ release, editable, onEdit }: { release: Release; editable: boolean; onEdit: () => void }) {
  const { t, i18n } = useTranslation();
  const date = new Date(`${release.releaseDate}T00:00:00`).toLocaleDateString(i18n.language, { dateStyle: 'long' });
  return (
    <article className={classes.release} data-testid="release">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div>
          <Title order={3} size="h4">
            {release.releaseName}
          </Title>
          <Text size="sm" c="dimmed">
            {release.releaseVersion} · {t('updates.released', { date })}
          </Text>
        </div>
        {editable && <ReleaseActions release={release} onEdit={onEdit} />}
      </Group>
      {ITEM_LISTS.filter((list) => release[list].length > 0).map((list) => (
        <section key={list} aria-label={t(`updates.sections.${list}`)}>
          <Badge mt="sm" mb={4} variant="light" color={SECTION_COLOURS[list]}>
            {t(`updates.sections.${list}`)}
          </Badge>
          <ul className={classes.items}>
            {release[list].map((item) => (
              <li key={item.id} className={classes.item}>
                <Text fw={600} span size="sm">
                  {item.title}
                </Text>
                {item.description && (
                  <Text size="sm" c="dimmed">
                    {item.description}
                  </Text>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </article>
  );
}

function ReleaseActions({ release, onEdit }: { release: Release; onEdit: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteRelease();
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('updates.deleteTitle', { version: release.releaseVersion }),
      children: <Text size="sm">{t('updates.deleteText')}</Text>,
      labels: { confirm: t('updates.delete'), cancel: t('updates.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'release-delete-confirm' },
      onConfirm: () =>
        remove.mutate(release.id, {
          onSuccess: () => notifications.show({ color: 'teal', message: t('updates.deleted') }),
          onError: (error) => notifications.show({ color: 'red', message: errorMessage(error, t('updates.deleteFailed')) }),
        }),
    });
  return (
    <Group gap={4} wrap="nowrap">
      <Button size="compact-sm" variant="subtle" leftSection={<IconEdit size={14} />} onClick={onEdit}>
        {t('updates.edit')}
      </Button>
      <Button size="compact-sm" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={confirmDelete} loading={remove.isPending}>
        {t('updates.delete')}
      </Button>
    </Group>
  );
}
