import { Button, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { openLoginDialog } from '../auth/loginDialog';
import { useSession } from '../auth/session';
import { sendFollow, sendSave } from './engagementCalls';
import { toggle, type ToggleState } from './engagementToggle';

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
 * A toggle: optimistic flip, then the server's exact state (see engagementToggle). A new count from
 * the data shown (other visitors' saves and follows, pushed into the cache) replaces the shown count;
 * the visitor's own state stays as they left it.
 */
function useToggle(initial: ToggleState, signedIn: boolean, send: (wanted: ToggleState) => Promise<ToggleState>) {
  const showFailure = useFailureDialog();
  const [state, setState] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [shownCount, setShownCount] = useState(initial.count);
  if (initial.count !== shownCount) {
    setShownCount(initial.count);
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
  const { state, busy, toggle: run } = useToggle({ on: initial.saved, count: initial.saves }, session.signedIn, (wanted) =>
    sendSave(guid, wanted),
  );
  return { saved: state.on, saves: state.count, busy, toggle: run };
}

/** Who sees a follow button (spec §2): signed-in visitors who are not admins, never on their own creator. */
export function canFollow(session: { signedIn: boolean; role: string; claims: { sub?: unknown } | null }, ownerUserId: number): boolean {
  const userId = Number(session.claims?.sub ?? Number.NaN);
  return session.signedIn && session.role !== 'admin' && Number.isInteger(userId) && userId !== ownerUserId;
}

/**
 * Follow a creator: hidden for guests, admins and the visitor's own creator (spec §2); the follower
 * count moves with it, never below 0 (spec §4).
 */
export function useFollowToggle(creatorId: number, ownerUserId: number, initial: { following: boolean; followers: number }) {
  const session = useSession();
  const userId = Number(session.claims?.sub ?? Number.NaN);
  const visible = canFollow(session, ownerUserId);
  const { state, busy, toggle: run } = useToggle({ on: initial.following, count: initial.followers }, visible, (wanted) =>
    sendFollow(userId, creatorId, wanted),
  );
  return { following: state.on, followers: state.count, visible, busy, toggle: run };
}
