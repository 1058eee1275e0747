import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Anchor, Badge, Button, Drawer, Group, Image, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../../../shared/layout/breakpoints';
import { itemDetailQueryOptions, type ModerationItem } from '../api/moderationApi';
import { diffRows, fieldLabel, isNamedField, itemSummary, showValue } from '../model/summary';
import classes from './Moderation.module.css';
import { KindBadge } from './QueueRow';

interface ItemDetailProps {
  /** The row the detail was opened from (shown while the detail loads); null: closed. */
  item: ModerationItem | null;
  busy: boolean;
  onClose: () => void;
  onApprove: (item: ModerationItem) => void;
  onReject: (item: ModerationItem) => void;
}

/** The approval panel of one item: who, when, and the published version beside the proposed one. */
export function ItemDetail({ item, busy, onClose, onApprove, onReject }: ItemDetailProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  return (
    <Drawer
      opened={item !== null}
      onClose={onClose}
      position="right"
      size={mobile ? '100%' : 'xl'}
      title={t('moderation.detail.title')}
      styles={{ title: { fontWeight: 700, fontSize: '1.1rem' } }}
      zIndex={300}
    >
      {item && <DetailBody item={item} busy={busy} onApprove={() => onApprove(item)} onReject={() => onReject(item)} />}
    </Drawer>
  );
}

function DetailBody({ item, busy, onApprove, onReject }: { item: ModerationItem; busy: boolean; onApprove: () => void; onReject: () => void }) {
  const { t, i18n } = useTranslation();
  const detail = useQuery(itemDetailQueryOptions(item.id));
  const summary = itemSummary({ ...item, summary: detail.data?.summary ?? item.summary ?? null });
  const title = summary.title ?? t('moderation.itemNumber', { id: item.id });
  const username = detail.data?.username ?? summary.username;
  return (
    <Stack gap="md" data-testid="item-detail" data-id={item.id}>
      {summary.preview_picture && <Image src={summary.preview_picture} alt="" radius="md" mah={220} fit="cover" />}
      <Stack gap={4}>
        <Text fw={700} size="lg">
          {title}
        </Text>
        <Group gap={8} wrap="wrap">
          <KindBadge kind={item.kind} />
          <Text size="sm" c="dimmed">
            {t('moderation.by', { name: username ? `@${username}` : t('moderation.unknownUser') })}
          </Text>
          <Text size="sm" c="dimmed">
            {new Date(item.created_at).toLocaleString(i18n.language)}
          </Text>
          {detail.data && detail.data.status !== 'pending' && (
            <Badge color="gray" variant="light">
              {detail.data.status}
            </Badge>
          )}
        </Group>
        {summary.link && (
          <Anchor href={summary.link} target="_blank" rel="noopener noreferrer" size="sm" style={{ wordBreak: 'break-all' }}>
            {summary.link}
          </Anchor>
        )}
      </Stack>

      <Group gap="xs" justify="flex-end">
        <Button radius="xl" variant="light" color="red" leftSection={<IconX size={16} />} onClick={onReject} disabled={busy} data-testid="detail-reject">
          {t('moderation.reject')}
        </Button>
        <Button radius="xl" color="teal" leftSection={<IconCheck size={16} />} onClick={onApprove} loading={busy} data-testid="detail-approve">
          {t('moderation.approve')}
        </Button>
      </Group>

      {detail.isPending ? (
        <Stack gap="xs" role="status" aria-busy="true" aria-label={t('page.loading')}>
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} h={28} radius="sm" />
          ))}
        </Stack>
      ) : detail.isError ? (
        <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={18} />}>
          <Group justify="space-between" gap="xs">
            <Text size="sm">{t('moderation.detail.failed')}</Text>
            <Button size="xs" variant="white" color="red" onClick={() => void detail.refetch()}>
              {t('common.retry')}
            </Button>
          </Group>
        </Alert>
      ) : (
        <Diff current={detail.data.current ?? null} proposed={detail.data.proposed} />
      )}
    </Stack>
  );
}

function Diff({ current, proposed }: { current: Record<string, unknown> | null; proposed: Record<string, unknown> }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const rows = diffRows(current, proposed);
  if (rows.length === 0) return <Text c="dimmed">{t('moderation.detail.noChanges')}</Text>;
  const empty = t('moderation.detail.empty');
  return (
    <Stack gap="xs">
      {current === null && (
        <Text size="sm" c="dimmed">
          {t('moderation.detail.newItem')}
        </Text>
      )}
      <Table className={classes.diff} withTableBorder withColumnBorders verticalSpacing={6} fz="sm" data-testid="item-diff">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={mobile ? '38%' : '24%'}>{t('moderation.detail.field')}</Table.Th>
            {current !== null && <Table.Th>{t('moderation.detail.current')}</Table.Th>}
            <Table.Th>{t('moderation.detail.proposed')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.field} className={current !== null && row.changed ? classes.changed : undefined} data-changed={row.changed || undefined}>
              <Table.Td fw={600}>{isNamedField(row.field) ? t(`moderation.fields.${row.field}`) : fieldLabel(row.field)}</Table.Td>
              {current !== null && <Table.Td className={row.changed ? classes.was : undefined}>{showValue(row.current) ?? empty}</Table.Td>}
              <Table.Td className={current !== null && row.changed ? classes.proposed : undefined}>{showValue(row.proposed) ?? empty}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
