import { ActionIcon, Button, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBookmark, IconBookmarkFilled, IconCheck, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { openLoginDialog } from '../../../shared/auth/loginDialog';
import { useSession } from '../../../shared/auth/session';
import { Hint } from '../../../shared/ui/Hint';
import { sendFollow, sendSave } from '../api/engagement';
import { toggle, type ToggleState } from '../model/engagementToggle';
import classes from './Cards.module.css';

/** Spec §8: a failed save/follow shows the server's message in a dialog with OK. */
function useFailureDialog() {
  const { t } = useTranslation();
  return (message: string | null) => {
    const id = modals.open({
      title: t('engagement.failedTitle'),
      radius: 'lg',
      centered: true,
      children: (
        <Stack gap="md" data-testid="engagement-failure">
          <Text size="sm">{message ?? t('engagement.failed')}</Text>
          <Button onClick={() => modals.close(id)} radius="xl" style={{ alignSelf: 'flex-end' }}>
            {t('common.ok')}
          </Button>
        </Stack>
      ),
    });
  };
}

/**
 * A card's toggle: optimistic flip, then the server's exact state (see model/engagementToggle). A new
 * count from the card's data (other visitors' saves and follows, pushed into the cached grid) replaces
 * the shown count; the visitor's own state stays as they left it.
 */
function useCardToggle(initial: ToggleState, signedIn: boolean, send: (wanted: ToggleState) => Promise<ToggleState>) {
  const showFailure = useFailureDialog();
  const [state, setState] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [cardCount, setCardCount] = useState(initial.count);
  if (initial.count !== cardCount) {
    setCardCount(initial.count);
    setState((current) => ({ ...current, count: initial.count }));
  }

  const run = async () => {
    if (busy) return;
    setBusy(signedIn);
    try {
      await toggle(state, { signedIn, send, show: setState, openLogin: openLoginDialog, showFailure });
    } finally {
      setBusy(false);
    }
  };
  return { state, busy, toggle: run };
}

/** A tour's save toggle and count; hidden on the visitor's own media (spec §2), login first for guests (§6). */
export function useSaveToggle(guid: string, initial: { saved: boolean; saves: number }) {
  const session = useSession();
  const { state, busy, toggle: run } = useCardToggle({ on: initial.saved, count: initial.saves }, session.signedIn, (wanted) =>
    sendSave(guid, wanted),
  );
  return { saved: state.on, saves: state.count, busy, toggle: run };
}

export function SaveButton({ saved, busy, onToggle }: { saved: boolean; busy: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const label = saved ? t('cards.unsave') : t('cards.save');
  return (
    <Hint label={label} position="left" className={classes.saveHint}>
      <ActionIcon
        className={classes.saveButton}
        variant="white"
        color="dark"
        radius="xl"
        size="lg"
        aria-label={label}
        aria-pressed={saved}
        // Busy, not `loading`: a loading button is disabled and would drop the keyboard's focus (the toggle is optimistic).
        aria-busy={busy}
        onClick={onToggle}
        data-testid="save-button"
      >
        {saved ? <IconBookmarkFilled size={18} /> : <IconBookmark size={18} />}
      </ActionIcon>
    </Hint>
  );
}

/**
 * Follow on a creator card: hidden for guests, admins and the visitor's own creator card (spec §2);
 * the follower count moves with it, never below 0 (spec §4).
 */
export function useFollowToggle(creatorId: number, ownerUserId: number, initial: { following: boolean; followers: number }) {
  const session = useSession();
  const userId = Number(session.claims?.sub ?? Number.NaN);
  const visible = session.signedIn && session.role !== 'admin' && Number.isInteger(userId) && userId !== ownerUserId;
  const { state, busy, toggle: run } = useCardToggle({ on: initial.following, count: initial.followers }, visible, (wanted) =>
    sendFollow(userId, creatorId, wanted),
  );
  return { following: state.on, followers: state.count, visible, busy, toggle: run };
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
