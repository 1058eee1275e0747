import { ActionIcon, Badge, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconClick, IconEdit, IconExternalLink, IconEye } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import type { AdOut } from '../../../shared/api/generated/types.gen';
import { formatCount } from '../../../shared/format/formatCount';
import { ManageRow, type ManageRowAction, RowMenu } from '../../../shared/manage/ManageRow';
import { adStates, type AdStateName } from '../model/adStates';
import classes from './ManageAds.module.css';

export type AdRowAction = ManageRowAction;

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
  const { t, i18n } = useTranslation();
  const created = new Date(ad.created_date).toLocaleDateString(i18n.language);
  return (
    <ManageRow
      selected={selected}
      onToggle={onToggle}
      selectLabel={t('manageAds.selectAd', { title: ad.title })}
      picture={ad.preview_picture}
      rowData={{ 'data-testid': 'manage-ad-row', 'data-ad-id': ad.id }}
      stats={
        <>
          <span title={t('manageAds.impressions', { count: ad.views })}>
            <IconEye size={14} aria-hidden="true" /> {formatCount(ad.views)}
          </span>
          <span title={t('manageAds.clicks', { count: ad.clicks })}>
            <IconClick size={14} aria-hidden="true" /> {formatCount(ad.clicks)}
          </span>
        </>
      }
      actions={
        <>
          <Tooltip label={t('manageAds.edit')} withArrow>
            <ActionIcon variant="subtle" color="gray" onClick={onEdit} aria-label={t('manageAds.edit')} data-testid="manage-ad-edit">
              <IconEdit size={18} />
            </ActionIcon>
          </Tooltip>
          <RowMenu
            active={ad.status === 'active'}
            canApprove={isAdmin && ad.approval_state !== 'approved'}
            onAction={onAction}
            openItem={
              <Menu.Item leftSection={<IconExternalLink size={14} />} component="a" href={ad.link} target="_blank" rel="noopener noreferrer">
                {t('manageAds.open')}
              </Menu.Item>
            }
            texts={{ menu: t('manageAds.rowActions'), toDrafts: t('manageAds.toDrafts'), activate: t('manageAds.publish'), approve: t('manageAds.approve'), delete: t('manageAds.delete') }}
            testId="manage-ad-menu"
          />
        </>
      }
    >
      <Text fw={650} size="sm" lineClamp={2}>
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
          {created} · {ad.link}
        </Text>
      </Group>
    </ManageRow>
  );
}
