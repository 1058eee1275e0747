import { ActionIcon, Button, Stack, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBookmark, IconBookmarkFilled, IconCheck, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { openLoginDialog } from '../../../shared/auth/loginDialog';
import { useSession } from '../../../shared/auth/session';
import { adjustedCount, postSave, serverMessage, setFollow } from '../api/engagement';
import classes from './Cards.module.css';

/** Spec §8: a failed like/save/follow shows the server's message in a dialog with OK. */
function useFailureDialog() {
  const { t } = useTranslation();
  return (error: unknown) => {
    const id = modals.open({
      title: t('engagement.failedTitle'),
      radius: 'lg',
      centered: true,
      children: (
        <Stack gap="md">
          <Text size="sm">{serverMessage(error) ?? t('engagement.failed')}</Text>
          <Button onClick={() => modals.close(id)} radius="xl" style={{ alignSelf: 'flex-end' }}>
            {t('common.ok')}
          </Button>
        </Stack>
      ),
    });
  };
}

interface SaveState {
  saved: boolean;
  saves: number;
}

/** A tour's save toggle and count; hidden on the visitor's own media (spec §2), login first for guests (§6). */
export function useSaveToggle(guid: string, initial: SaveState) {
  const session = useSession();
  const showFailure = useFailureDialog();
  const [state, setState] = useState(initial);
  const [busy, setBusy] = useState(false);

  const toggle = async () => {
    if (!session.signedIn) {
      openLoginDialog();
      return;
    }
    const previous = state;
    const next = { saved: !state.saved, saves: adjustedCount(state.saves, !state.saved) };
    setState(next);
    setBusy(true);
    try {
      await postSave(guid, next.saves, next.saved);
    } catch (error) {
      setState(previous);
      showFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return { ...state, busy, toggle };
}

export function SaveButton({ saved, busy, onToggle }: { saved: boolean; busy: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const label = saved ? t('cards.unsave') : t('cards.save');
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        className={classes.saveButton}
        variant="white"
        color="dark"
        radius="xl"
        size="lg"
        aria-label={label}
        aria-pressed={saved}
        loading={busy}
        onClick={onToggle}
        data-testid="save-button"
      >
        {saved ? <IconBookmarkFilled size={18} /> : <IconBookmark size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * Follow on a creator card: hidden for guests, admins and the visitor's own creator card (spec §2);
 * the follower count moves with it, never below 0 (spec §4).
 */
export function useFollowToggle(creatorId: number, ownerUserId: number, initial: { following: boolean; followers: number }) {
  const session = useSession();
  const showFailure = useFailureDialog();
  const [state, setState] = useState(initial);
  const [busy, setBusy] = useState(false);
  const userId = session.claims?.sub ?? null;
  const visible = session.signedIn && session.role !== 'admin' && userId !== null && userId !== String(ownerUserId);

  const toggle = async () => {
    if (userId === null) return;
    const previous = state;
    const next = { following: !state.following, followers: adjustedCount(state.followers, !state.following) };
    setState(next);
    setBusy(true);
    try {
      await setFollow(userId, creatorId, next.following);
    } catch (error) {
      setState(previous);
      showFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return { ...state, visible, busy, toggle };
}

export function FollowButton({ following, busy, onToggle }: { following: boolean; busy: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      className={classes.followButton}
      size="compact-sm"
      radius="xl"
      variant={following ? 'white' : 'filled'}
      color={following ? 'dark' : 'brand'}
      leftSection={following ? <IconCheck size={14} /> : <IconPlus size={14} />}
      loading={busy}
      onClick={onToggle}
      aria-pressed={following}
      data-testid="follow-button"
    >
      {following ? t('cards.following') : t('cards.follow')}
    </Button>
  );
}
