import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { openLoginDialog } from '../../../shared/auth/loginDialog';
import { useSession } from '../../../shared/auth/session';
import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';
import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';
import { showMessageDialog } from '../../../shared/ui/messageDialog';
import { postLike, postSave, postShare } from '../api/tourApi';
import { countShare, type Engagement, type PlayerCounters, toggleEngagement, withLiveCounters } from '../model/playerCounters';

function serverMessage(error: unknown): string | null {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.trim() ? message : null;
}

/**
 * Like and save on the tour page (spec §4): login first for guests, the counter moves at once (never
 * below 0), the server's exact counts follow, and a refusal is undone and explained (spec §8).
 */
export function useTourEngagement(guid: string) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const key = tourQueryKeys.player(guid);
  const [busy, setBusy] = useState<Engagement | null>(null);

  const update = (change: (counters: PlayerCounters) => PlayerCounters) =>
    queryClient.setQueryData<PlayerCounters>(key, (current) => (current ? change(current) : current));

  const toggle = async (kind: Engagement) => {
    if (!session.signedIn) {
      openLoginDialog();
      return;
    }
    const current = queryClient.getQueryData<PlayerCounters>(key);
    if (!current || busy) return;
    const next = toggleEngagement(current, kind);
    update(() => next);
    setBusy(kind);
    try {
      if (kind === 'like') {
        const answer = await postLike(guid, next.likes, next.user_like === 1);
        update((counters) => ({ ...withLiveCounters(counters, answer), user_like: answer.user_like }));
      } else {
        const answer = await postSave(guid, next.saves, next.user_save === 1);
        update((counters) => ({ ...withLiveCounters(counters, answer), user_save: answer.user_save }));
      }
      // Grids show is_save and save counts: let them catch up when next shown.
      void queryClient.invalidateQueries({ queryKey: discoveryQueryKeys.all, refetchType: 'none' });
    } catch (error) {
      // Undo by toggling back, so counters pushed meanwhile by other visitors are kept.
      update((counters) => toggleEngagement(counters, kind));
      showMessageDialog({ title: t('engagement.failedTitle'), message: serverMessage(error) ?? t('engagement.failed'), okLabel: t('common.ok') });
    } finally {
      setBusy(null);
    }
  };

  /** A share is counted when the link is copied or sent somewhere; failures only lose a count. */
  const share = (channel: string) => {
    update(countShare);
    postShare(guid, channel).then(
      (answer) => update((counters) => withLiveCounters(counters, answer)),
      () => update((counters) => ({ ...counters, shared: Math.max(0, counters.shared - 1) })),
    );
  };

  return { toggle, share, busy };
}
