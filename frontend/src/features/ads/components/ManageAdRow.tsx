import { ActionIcon, Badge, Checkbox, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconArchive, IconCheck, IconClick, IconDots, IconEdit, IconExternalLink, IconEye, IconPhoto, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import type { AdOut } from '../../../shared/api/generated/types.gen';
import { formatCount } from '../../../shared/format/formatCount';
import { adStates, type AdStateName } from '../model/adStates';
import classes from './ManageAds.module.css';

export type AdRowAction = 'deactivate' | 'activate' | 'approve' | 'delete';

const STATE_COLOR: Record<AdStateName, string> = {
  published: 'teal',
  draft: 'gray',
  pending: 'yellow',
  rejected: 'red',
  editPending: 'blue',
};

interface ManageAdRowProps {
  ad: AdOut;
  selected: boolean;
  onToggle: () => void;
  isAdmin: boolean;
  onAction: (action: AdRowAction) => void;
  onEdit: () => void;
}

/** One ad of Manage Ads: select, open its link, edit, and its own actions. */
export function ManageAdRow({ ad, selected, onToggle, isAdmin, onAction, onEdit }: ManageAdRowProps) {
  const { t } = useTranslation();
  const created = new Date(ad.created_date).toLocaleDateString();
  return (
    <li className={classes.row} data-selected={selected || undefined} data-testid="manage-ad-row" data-ad-id={ad.id}>
      <Checkbox checked={selected} onChange={onToggle} aria-label={t('manageAds.selectAd', { title: ad.title })} />
      <div className={classes.thumb}>{ad.preview_picture ? <img src={ad.preview_picture} alt="" loading="lazy" /> : <IconPhoto size={22} stroke={1.4} />}</div>
      <div className={classes.rowMain}>
        <Text fw={650} size="sm" lineClamp={1}>
          {ad.title}
        </Text>
        <Group gap={8} wrap="wrap" mt={2}>
          <Group gap={4} wrap="wrap">
            {adStates(ad).map((state) => (
              <Badge key={state} size="sm" color={STATE_COLOR[state]} variant="light" data-state={state}>
                {t(`manageAds.state.${state}`)}
              </Badge>
            ))}
          </Group>
          <Text size="xs" c="dimmed" className={classes.rowLink}>
            {ad.link} · {created}
          </Text>
        </Group>
      </div>
      <Group gap={12} wrap="nowrap" className={classes.rowStats}>
        <span title={t('manageAds.impressions', { count: ad.views })}>
          <IconEye size={14} aria-hidden="true" /> {formatCount(ad.views)}
        </span>
        <span title={t('manageAds.clicks', { count: ad.clicks })}>
          <IconClick size={14} aria-hidden="true" /> {formatCount(ad.clicks)}
        </span>
      </Group>
      <Group gap={4} wrap="nowrap">
        <Tooltip label={t('manageAds.edit')} withArrow>
          <ActionIcon variant="subtle" color="gray" onClick={onEdit} aria-label={t('manageAds.edit')} data-testid="manage-ad-edit">
            <IconEdit size={18} />
          </ActionIcon>
        </Tooltip>
        <Menu position="bottom-end" withinPortal zIndex={400}>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={t('manageAds.rowActions')} data-testid="manage-ad-menu">
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconExternalLink size={14} />} component="a" href={ad.link} target="_blank" rel="noopener noreferrer">
              {t('manageAds.open')}
            </Menu.Item>
            {ad.status === 'active' ? (
              <Menu.Item leftSection={<IconArchive size={14} />} onClick={() => onAction('deactivate')}>
                {t('manageAds.toDrafts')}
              </Menu.Item>
            ) : (
              <Menu.Item leftSection={<IconPlayerPlay size={14} />} onClick={() => onAction('activate')}>
                {t('manageAds.publish')}
              </Menu.Item>
            )}
            {isAdmin && ad.approval_state !== 'approved' && (
              <Menu.Item leftSection={<IconCheck size={14} />} color="teal" onClick={() => onAction('approve')}>
                {t('manageAds.approve')}
              </Menu.Item>
            )}
            <Menu.Divider />
            <Menu.Item leftSection={<IconTrash size={14} />} color="red" onClick={() => onAction('delete')}>
              {t('manageAds.delete')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </li>
  );
}
