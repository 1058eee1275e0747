import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';

import { useCurrentUser } from '../../../shared/auth/currentUser';
import { useSession } from '../../../shared/auth/session';
import { readJson, STORAGE_KEYS, storedValue, writeJson } from '../../../shared/storage/localStore';
import { afterFirstScreen } from '../../../shared/timing/afterFirstScreen';
import { tourCountsQueryOptions } from '../api/dailyFeatured';
import { answered, dayKey, isDailyFeaturedRecord, parseRecord, shouldOffer } from '../model/dailyFeatured';

const DailyFeaturedDialog = lazy(async () => ({ default: (await import('./DailyFeaturedDialog')).DailyFeaturedDialog }));

const record = storedValue(STORAGE_KEYS.dailyFeatured, parseRecord);

/**
 * Spec §2: the daily featured-tour dialog, once a day for a signed-in creator with at least one
 * listed tour, after the first screen is drawn. Its code and the tour count are fetched only for
 * creators who have not answered today.
 */
export function DailyFeaturedHost() {
  const session = useSession();
  const answeredDays = record.useStore();
  const [today, setToday] = useState(() => dayKey(new Date()));
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let active = true;
    void afterFirstScreen().then(() => active && setReady(true));
    return () => {
      active = false;
    };
  }, []);
  // A tab left open past midnight (UTC) asks again on the new day.
  useEffect(() => {
    const timer = window.setInterval(() => setToday(dayKey(new Date())), 60_000);
    return () => window.clearInterval(timer);
  }, []);

  const user = useCurrentUser();
  const userId = session.role === 'creator' ? (user.data?.userid ?? null) : null;
  const unanswered = userId !== null && answeredDays[String(userId)] !== today;
  const counts = useQuery({ ...tourCountsQueryOptions(userId ?? 0), enabled: ready && unanswered });
  if (userId === null || !ready || !counts.data || !shouldOffer(answeredDays, userId, today, counts.data.active)) return null;

  const onAnswered = () => {
    const current = readJson(STORAGE_KEYS.dailyFeatured, isDailyFeaturedRecord) ?? {};
    writeJson(STORAGE_KEYS.dailyFeatured, answered(current, userId, today));
  };
  return (
    <Suspense fallback={null}>
      <DailyFeaturedDialog userId={userId} onAnswered={onAnswered} />
    </Suspense>
  );
}
