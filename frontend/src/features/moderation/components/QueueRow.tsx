import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { ActionIcon, Badge, Button, Checkbox, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconExternalLink, IconFileDescription, IconPhoto, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import type { ApprovalKind } from '../../../shared/api/generated/types.gen';
import type { ModerationItem } from '../api/moderationApi';
import { itemSummary } from '../model/summary';
import classes from './Moderation.module.css';

interface QueueRowProps {
  item: ModerationItem;
  cursor: boolean;
  selected: boolean;
  busy: boolean;
  onPoint: () => void;
  onToggle: () => void;
  onApprove: () => void;
  onReject: () => void;
  onOpen: () => void;
}

export function KindBadge({ kind }: { kind: ApprovalKind }) {
  const { t } = useTranslation();
  const color = kind.includes('tour') || kind === 'vt_edit' ? 'brand' : kind.includes('provider') ? 'violet' : kind.includes('ad') ? 'orange' : kind === 'category_request' ? 'cyan' : 'blue';
  return (
    <Badge size="sm" variant="light" color={color} radius="sm">
      {t(`moderation.kinds.${kind}`)}
    </Badge>
  );
}

/** One waiting item: what it is, who sent it, when; select, approve, reject, details. */
export function QueueRow({ item, cursor, selected, busy, onPoint, onToggle, onApprove, onReject, onOpen }: QueueRowProps) {
  const { t, i18n } = useTranslation();
  const summary = itemSummary(item);
  const title = summary.title ?? t('moderation.itemNumber', { id: item.id });
  const submitted = new Date(item.created_at);
  return (
    <li
      className={classes.row}
      data-cursor={cursor || undefined}
      data-selected={selected || undefined}
      aria-current={cursor || undefined}
      data-testid="queue-row"
      data-id={item.id}
      data-kind={item.kind}
      onClick={onPoint}
      onDoubleClick={onOpen}
    >
      <Checkbox checked={selected} onChange={onToggle} aria-label={t('moderation.select', { title })} onClick={(event) => event.stopPropagation()} />
      <div className={classes.thumb}>
        {summary.preview_picture ? <img src={summary.preview_picture} alt="" loading="lazy" /> : item.kind.includes('tour') ? <IconPhoto size={22} stroke={1.4} /> : <IconFileDescription size={22} stroke={1.4} />}
      </div>
      <div className={classes.rowMain}>
        <Text fw={650} size="sm" lineClamp={1} data-testid="queue-row-title">
          {title}
        </Text>
        <Group gap={8} wrap="wrap" mt={4}>
          <KindBadge kind={item.kind} />
          <Text size="xs" c="dimmed">
            {t('moderation.by', { name: summary.username ? `@${summary.username}` : t('moderation.unknownUser') })}
          </Text>
          <Text size="xs" c="dimmed" component="time" dateTime={item.created_at} title={submitted.toLocaleString(i18n.language)}>
            {submitted.toLocaleDateString(i18n.language, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })}
          </Text>
          {summary.link && (
            <Tooltip label={summary.link}>
              <ActionIcon component="a" href={summary.link} target="_blank" rel="noopener noreferrer" variant="subtle" size="sm" aria-label={t('moderation.detail.openLink')} onClick={(event) => event.stopPropagation()}>
                <IconExternalLink size={14} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </div>
      <div className={classes.rowActions} onClick={(event) => event.stopPropagation()}>
        <Button size="xs" radius="xl" variant="default" onClick={onOpen} data-testid="row-open">
          {t('moderation.open')}
        </Button>
        <Button size="xs" radius="xl" variant="light" color="red" leftSection={<IconX size={14} />} onClick={onReject} disabled={busy} data-testid="row-reject">
          {t('moderation.reject')}
        </Button>
        <Button size="xs" radius="xl" color="teal" leftSection={<IconCheck size={14} />} onClick={onApprove} loading={busy} data-testid="row-approve">
          {t('moderation.approve')}
        </Button>
      </div>
    </li>
  );
}
