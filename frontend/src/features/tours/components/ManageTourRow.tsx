import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { ActionIcon, Anchor, Badge, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconBookmark, IconEdit, IconExternalLink, IconEye, IconEyeOff, IconHeart, IconStar, IconStarFilled, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { TourOut } from '../../../shared/api/generated/types.gen';
import { formatCount } from '../../../shared/format/formatCount';
import { ManageRow, type ManageRowAction, RowMenu } from '../../../shared/manage/ManageRow';
import { openMediaForm } from '../../../shared/media/mediaFormRequest';
import { paths } from '../../../shared/routing/paths';

/** A row's actions: the ones every manage row has, and a tour's visibility. */
export type TourRowAction = ManageRowAction | 'make_unlisted' | 'make_public';

interface ManageTourRowProps {
  tour: TourOut;
  selected: boolean;
  onToggle: () => void;
  isAdmin: boolean;
  /** null when featuring does not apply (not a creator, or not sorting by featured). */
  featured: boolean | null;
  onFeature: () => void;
  onAction: (action: TourRowAction) => void;
  onOpenTour: () => void;
}

function StateBadges({ tour }: { tour: TourOut }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="wrap">
      <Badge size="sm" color={tour.status === 'active' ? 'teal' : 'gray'} variant="light">
        {tour.status === 'active' ? t('manageMedia.state.active') : t('manageMedia.state.draft')}
      </Badge>
      {tour.approval_state === 'pending' && (
        <Badge size="sm" color="yellow" variant="light">
          {t('manageMedia.state.pending')}
        </Badge>
      )}
      {tour.approval_state === 'rejected' && (
        <Badge size="sm" color="red" variant="light">
          {t('manageMedia.state.rejected')}
        </Badge>
      )}
      {tour.edit_pending && (
        <Badge size="sm" color="blue" variant="light">
          {t('manageMedia.state.editPending')}
        </Badge>
      )}
      {tour.visibility === 'unlisted' && (
        <Badge size="sm" color="violet" variant="light" leftSection={<IconEyeOff size={12} />} data-testid="manage-unlisted">
          {t('manageMedia.state.unlisted')}
        </Badge>
      )}
    </Group>
  );
}

/** One tour of the dashboard: select, open, edit, feature, and its own actions. */
export function ManageTourRow({ tour, selected, onToggle, isAdmin, featured, onFeature, onAction, onOpenTour }: ManageTourRowProps) {
  const { t, i18n } = useTranslation();
  // Featured on the owner's profile: any published tour, unlisted ones too (the profile is the owner's page).
  const listed = tour.status === 'active' && tour.approval_state === 'approved';
  const created = new Date(tour.created_date).toLocaleDateString(i18n.language);
  return (
    <ManageRow
      selected={selected}
      onToggle={onToggle}
      selectLabel={t('manageMedia.selectTour', { title: tour.title })}
      picture={tour.preview_picture}
      rowData={{ 'data-testid': 'manage-row', 'data-guid': tour.guid }}
      stats={
        <>
          <span title={t('tourPage.views', { count: tour.views })}>
            <IconEye size={14} /> {formatCount(tour.views)}
          </span>
          <span title={t('tourPage.likes', { count: tour.likes })}>
            <IconHeart size={14} /> {formatCount(tour.likes)}
          </span>
          <span title={t('tourPage.saves', { count: tour.saves })}>
            <IconBookmark size={14} /> {formatCount(tour.saves)}
          </span>
        </>
      }
      actions={
        <>
          {featured !== null && (
            <Tooltip label={featured ? t('manageMedia.unfeature') : listed ? t('manageMedia.feature') : t('manageMedia.featureListedOnly')} withArrow>
              <ActionIcon
                variant="subtle"
                color={featured ? 'yellow' : 'gray'}
                onClick={onFeature}
                disabled={!featured && !listed}
                aria-pressed={featured}
                aria-label={featured ? t('manageMedia.unfeature') : t('manageMedia.feature')}
              >
                {featured ? <IconStarFilled size={18} /> : <IconStar size={18} />}
              </ActionIcon>
            </Tooltip>
          )}
          <Tooltip label={t('manageMedia.edit')} withArrow>
            <ActionIcon variant="subtle" color="gray" onClick={() => openMediaForm({ mode: 'edit', guid: tour.guid })} aria-label={t('manageMedia.edit')} data-testid="manage-edit">
              <IconEdit size={18} />
            </ActionIcon>
          </Tooltip>
          <RowMenu
            active={tour.status === 'active'}
            canApprove={isAdmin && tour.approval_state !== 'approved'}
            onAction={onAction}
            moreItems={
              tour.visibility === 'unlisted' ? (
                <Menu.Item leftSection={<IconWorld size={14} />} onClick={() => onAction('make_public')} data-testid="manage-make-public">
                  {t('manageMedia.makePublic')}
                </Menu.Item>
              ) : (
                <Menu.Item leftSection={<IconEyeOff size={14} />} onClick={() => onAction('make_unlisted')} data-testid="manage-make-unlisted">
                  {t('manageMedia.makeUnlisted')}
                </Menu.Item>
              )
            }
            openItem={
              <Menu.Item leftSection={<IconExternalLink size={14} />} component={Link} to={paths.tour(tour.guid)} onClick={onOpenTour}>
                {t('manageMedia.open')}
              </Menu.Item>
            }
            texts={{ menu: t('manageMedia.rowActions'), toDrafts: t('manageMedia.toDrafts'), activate: t('manageMedia.activate'), approve: t('manageMedia.approve'), delete: t('manageMedia.delete') }}
          />
        </>
      }
    >
      <Anchor component={Link} to={paths.tour(tour.guid)} onClick={onOpenTour} fw={650} size="sm" lineClamp={1} c="dark">
        {tour.title}
      </Anchor>
      <Group gap={8} wrap="wrap" mt={2}>
        <StateBadges tour={tour} />
        <Text size="xs" c="dimmed">
          {tour.vendor.name} · {created}
        </Text>
      </Group>
    </ManageRow>
  );
}
