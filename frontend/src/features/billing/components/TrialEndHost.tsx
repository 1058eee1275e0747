import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { useLocation } from 'react-router';

import { useSession } from '../../../shared/auth/session';
import { trialsQueryOptions } from '../../../shared/billing/billingApi';
import { billingQueryKeys } from '../../../shared/billing/billingQueryKeys';
import { REALTIME_EVENTS } from '../../../shared/socket/events';
import { useRealtimeEvent } from '../../../shared/socket/useRealtime';
import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';

// The dialog (a Modal) is fetched only when a trial has ended: never in the feed's first download.
const TrialEndDialog = lazy(async () => ({ default: (await import('./TrialEndDialog')).TrialEndDialog }));

/** Spec §9: the end-of-trial dialog may be closed 3 times; afterwards the check runs every 60 s. */
export const RELAXED_CHECK_MS = 15 * 60_000;
export const STRICT_CHECK_MS = 60_000;

/**
 * The end-of-trial check (spec §4): for a signed-in user whose newest trial has ended with nothing
 * replacing it, the dialog appears. Closing it is counted on the server; once it has been closed 3
 * times it cannot be closed any more and the check runs every 60 seconds. A trial ended by Stripe or
 * by the platform's check is pushed over Socket.IO and shown at once.
 */
export function TrialEndHost() {
  const session = useSession();
  // The billing pages are where the dialog sends the user: it is not drawn over them.
  const onBillingPage = useLocation().pathname.startsWith('/billing/');
  const queryClient = useQueryClient();
  const [hiddenAt, setHiddenAt] = useState<number | null>(null);
  const trials = useQuery({
    ...trialsQueryOptions(),
    enabled: session.signedIn,
    refetchInterval: (query) => (query.state.data && !query.state.data.closable ? STRICT_CHECK_MS : RELAXED_CHECK_MS),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: billingQueryKeys.all });
  useRealtimeEvent(REALTIME_EVENTS.trialEnded, refresh);
  useRealtimeEvent(REALTIME_EVENTS.subscriptionChanged, refresh);

  const data = trials.data;
  // Closed: hidden until a check one interval later has read the state again (15 min while it may be
  // closed, 60 s once it may not).
  const interval = data && !data.closable ? STRICT_CHECK_MS : RELAXED_CHECK_MS;
  const hidden = hiddenAt !== null && trials.dataUpdatedAt < hiddenAt + interval;
  const due = session.signedIn && !onBillingPage && data !== undefined && data.trial_ended && data.ended_subscription !== null && !hidden;
  return (
    <MountWhenOpened opened={due}>
      {data?.ended_subscription && (
        <TrialEndDialog opened={due} trials={data} onClosed={() => setHiddenAt(Date.now())} />
      )}
    </MountWhenOpened>
  );
}
