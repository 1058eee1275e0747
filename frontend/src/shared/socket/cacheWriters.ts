import type { QueryClient } from '@tanstack/react-query';

import { creatorQueryKeys } from '../creators/creatorQueryKeys';
import { discoveryQueryKeys } from '../discovery/discoveryQueryKeys';
import { moderationQueryKeys } from '../moderation/moderationQueryKeys';
import { platformQueryKeys } from '../platform/platformQueryKeys';
import { tourCountersKey } from '../tours/tourQueryKeys';
import {
  type AppVersionEvent,
  type CreatorAnalyticsEvent,
  type CreatorCountersEvent,
  type ModerationQueueEvent,
  REALTIME_EVENTS,
  type TourCountersEvent,
} from './events';

/**
 * Pushed events written straight into the react-query cache with setQueryData: the page shows the
 * new value at once and nothing is refetched (a like seen by a thousand open pages must not become a
 * thousand requests). A query nobody has loaded is left alone: there is nothing on screen to update,
 * and a partial object must not pass for a loaded answer.
 */
export function writeEventToCache(queryClient: QueryClient, event: string, data: unknown): void {
  if (!isRecord(data)) return;
  switch (event) {
    case REALTIME_EVENTS.tourCounters:
      if (isTourCounters(data)) writeTourCounters(queryClient, data);
      return;
    case REALTIME_EVENTS.creatorCounters:
      if (isCreatorCounters(data)) writeCreatorCounters(queryClient, data);
      return;
    case REALTIME_EVENTS.appVersion:
      if (typeof data.gui_version === 'string') writeAppVersion(queryClient, { gui_version: data.gui_version });
      return;
    case REALTIME_EVENTS.moderationQueue:
      // The counts of every kind, as the count call answers them: a complete answer, loaded or not.
      if (isModerationQueue(data)) queryClient.setQueryData(moderationQueryKeys.pendingCounts, data.pending);
      return;
    case REALTIME_EVENTS.creatorAnalytics:
      if (isCreatorAnalytics(data)) writeCreatorAnalytics(queryClient, data);
      return;
    default:
  }
}

const TOUR_COUNTERS = ['views', 'likes', 'saves', 'shared'] as const;
const CREATOR_COUNTERS = ['followers', 'views', 'likes'] as const;
const CREATOR_ANALYTICS = ['views', 'likes', 'saves', 'shared', 'followers'] as const;

/** Into the tour page's player query and into every loaded card of the tour (grids, lists). */
export function writeTourCounters(queryClient: QueryClient, counters: TourCountersEvent): void {
  queryClient.setQueryData(tourCountersKey(counters.id), (old: unknown) => mergeCounters(old, counters, TOUR_COUNTERS));
  writeIntoCards(queryClient, (card) => card.guid === counters.id, counters, TOUR_COUNTERS);
}

/** Into every loaded creator query about this creator (profile, card, lookup by name) and its grid cards. */
export function writeCreatorCounters(queryClient: QueryClient, counters: CreatorCountersEvent): void {
  queryClient.setQueriesData({ queryKey: creatorQueryKeys.all }, (old: unknown) =>
    isRecord(old) && old.id === counters.id ? mergeCounters(old, counters, CREATOR_COUNTERS) : old,
  );
  writeIntoCards(queryClient, (card) => card.type === 'creator' && card.id === counters.id, counters, CREATOR_COUNTERS);
}

/**
 * The owner's totals, whole: unlike counters merged into a loaded answer, the push is a complete
 * answer of its own, so it is kept even before the analytics page loads it (fields of a loaded
 * answer that the push does not carry are kept).
 */
export function writeCreatorAnalytics(queryClient: QueryClient, totals: CreatorAnalyticsEvent): void {
  const { creator_id, views, likes, saves, shared, followers } = totals;
  queryClient.setQueryData(creatorQueryKeys.analytics(creator_id), (old: unknown) =>
    isRecord(old) ? mergeCounters(old, totals, CREATOR_ANALYTICS) : { creator_id, views, likes, saves, shared, followers },
  );
}

type Card = Record<string, unknown>;

/**
 * Pushed counters into the matching cards of every loaded card list: the pages of an infinite grid
 * (`{pages: [{data: [card…]}]}`) and plain lists (`{data: [card…]}`). Only the counters a card has
 * are replaced; a list with nothing to change keeps its identity, so nothing re-renders.
 */
function writeIntoCards(queryClient: QueryClient, matches: (card: Card) => boolean, pushed: object, names: readonly string[]): void {
  const updateCard = (card: unknown) => (isRecord(card) && matches(card) ? mergeCounters(card, pushed, names) : card);
  queryClient.setQueriesData({ queryKey: discoveryQueryKeys.all }, (old: unknown) => {
    if (!isRecord(old)) return old;
    if (Array.isArray(old.pages)) {
      const pages = mapKeepingIdentity(old.pages, (page) => (isRecord(page) ? withCards(page, updateCard) : page));
      return pages === old.pages ? old : { ...old, pages };
    }
    return withCards(old, updateCard);
  });
}

/** The list with its `data` cards updated; the same object when none changed. */
function withCards(list: Card, updateCard: (card: unknown) => unknown): Card {
  if (!Array.isArray(list.data)) return list;
  const data = mapKeepingIdentity(list.data, updateCard);
  return data === list.data ? list : { ...list, data };
}

function mapKeepingIdentity<T>(items: readonly T[], update: (item: T) => T): readonly T[] {
  let changed = false;
  const updated = items.map((item) => {
    const next = update(item);
    changed ||= next !== item;
    return next;
  });
  return changed ? updated : items;
}

export function writeAppVersion(queryClient: QueryClient, version: AppVersionEvent): void {
  queryClient.setQueryData(platformQueryKeys.appVersion, version);
}

/** The counters the cached object already has, replaced by the pushed values; the same object when nothing changed. */
function mergeCounters(old: unknown, pushed: object, names: readonly string[]): unknown {
  if (!isRecord(old)) return old;
  const values = pushed as Record<string, unknown>;
  const changes = Object.fromEntries(
    names.filter((name) => name in old && typeof values[name] === 'number' && old[name] !== values[name]).map((name) => [name, values[name]]),
  );
  return Object.keys(changes).length === 0 ? old : { ...old, ...changes };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTourCounters(data: Record<string, unknown>): data is Record<string, unknown> & TourCountersEvent {
  return typeof data.id === 'string' && TOUR_COUNTERS.every((name) => typeof data[name] === 'number');
}

function isCreatorCounters(data: Record<string, unknown>): data is Record<string, unknown> & CreatorCountersEvent {
  return typeof data.id === 'number' && typeof data.followers === 'number' && typeof data.views === 'number';
}

function isCreatorAnalytics(data: Record<string, unknown>): data is Record<string, unknown> & CreatorAnalyticsEvent {
  return typeof data.creator_id === 'number' && CREATOR_ANALYTICS.every((name) => typeof data[name] === 'number');
}

function isModerationQueue(data: Record<string, unknown>): data is Record<string, unknown> & ModerationQueueEvent {
  return isRecord(data.pending) && Object.values(data.pending).every((count) => typeof count === 'number');
}
