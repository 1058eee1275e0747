import { useInfiniteQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useSession } from '../../../shared/auth/session';
import { useFilterState } from '../../../shared/filters/filterState';
import { imageSettled, markFirstScreenDrawn } from '../../../shared/timing/afterFirstScreen';
import { filteredGridQueryOptions, personalFeedOf } from '../api/filteredGrid';
import { GridSummary } from '../components/GridSummary';
import { InfiniteCardGrid } from '../components/InfiniteCardGrid';
import classes from './FeedPage.module.css';

// Only guests on a feed of their own and an empty Saves & Follows see these: fetched when needed.
const SignInPrompt = lazy(async () => ({ default: (await import('../components/FeedPrompts')).SignInPrompt }));
const SavesFollowsEmpty = lazy(async () => ({ default: (await import('../components/FeedPrompts')).SavesFollowsEmpty }));

/**
 * The feed (spec §2 `/feed`, route gridHome): the grid of the current filters, endlessly scrolled. A
 * guest on a feed of their own (For You, Saves & Follows) is asked to sign in instead.
 */
export function FeedPage() {
  const filters = useFilterState();
  const { i18n } = useTranslation();
  const { signedIn } = useSession();
  const personal = personalFeedOf(filters);
  const askSignIn = !signedIn && personal !== null;
  const grid = useInfiniteQuery({ ...filteredGridQueryOptions(filters, i18n.language), enabled: !askSignIn });
  const page = useRef<HTMLElement>(null);
  // The first screen is drawn once the first row's previews (loaded eagerly) have arrived: what
  // waits for it (afterFirstScreen) may then use the link.
  const answered = askSignIn || grid.status !== 'pending';
  useEffect(() => {
    if (!answered) return;
    const previews = [...(page.current?.querySelectorAll<HTMLImageElement>('img[loading="eager"]') ?? [])];
    void Promise.all(previews.map(imageSettled)).then(markFirstScreenDrawn);
  }, [answered]);
  return (
    <main className={classes.page} ref={page}>
      {askSignIn ? (
        <Suspense fallback={null}>
          <SignInPrompt feed={personal} />
        </Suspense>
      ) : (
        <>
          <GridSummary total={grid.data?.pages[0]?.total_items ?? null} rankedBy={grid.data?.pages[0]?.ranked_by} />
          <InfiniteCardGrid
            grid={grid}
            empty={
              personal === 'saves_follows' ? (
                <Suspense fallback={null}>
                  <SavesFollowsEmpty />
                </Suspense>
              ) : undefined
            }
          />
        </>
      )}
    </main>
  );
}
