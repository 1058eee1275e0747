/**
 * The realtime contract with the server (app/realtime/events.py, checked by tests/realtime/test_contract.py):
 * event names, their payloads and the rooms a page can join.
 */
export const REALTIME_EVENTS = {
  tourCounters: 'tour:counters',
  creatorCounters: 'creator:counters',
  moderationQueue: 'moderation:queue',
  notification: 'notification',
  crawlerStatus: 'crawler:status',
  mailingSync: 'mailing:sync',
  creatorAnalytics: 'creator:analytics',
  appVersion: 'app:version',
  trialEnded: 'billing:trial_ended',
  subscriptionChanged: 'billing:subscription',
  dictionariesChanged: 'dictionaries:changed',
} as const;

export type RealtimeEventName = (typeof REALTIME_EVENTS)[keyof typeof REALTIME_EVENTS];

export interface TourCountersEvent {
  /** The tour guid. */
  id: string;
  views: number;
  likes: number;
  saves: number;
  shared: number;
}

export interface CreatorCountersEvent {
  id: number;
  followers: number;
  views: number;
  likes?: number;
}

export interface ModerationQueueEvent {
  /** A kind of spec §4 "Pending approval items": new_user, new_virtual_tour, vt_edit… */
  kind: string;
  /** What the item is about as its domain names it: an approval item's id, a tour's guid. */
  id: number | string;
  /** The approval item's id (null when there is none, e.g. once a deleted tour took its items along). */
  item_id: number | null;
  action: 'added' | 'removed' | 'approved' | 'rejected' | 'deleted';
  /** Items waiting per kind, every kind named, as GET /v2/pending/approval-items answers. */
  pending: Record<string, number>;
}

/** A crawl's progress, pushed to the admins at most once a second while it runs and on every change of status. */
export interface CrawlerStatusEvent {
  session_id: number;
  configuration_id: number;
  /** queued, running, stopped, finished or failed. */
  status: string;
  total_tours: number;
  new_tours: number;
  pages_fetched: number;
  pages_failed: number;
}

/** A creator's totals, pushed to the owner's room whenever one of them moves. */
export interface CreatorAnalyticsEvent {
  creator_id: number;
  views: number;
  likes: number;
  saves: number;
  shared: number;
  followers: number;
}

/** An admin changed a dictionary: pages drop their cached copy of it and load it again. */
export interface DictionariesChangedEvent {
  kind: 'category' | 'subcategory' | 'media_type' | 'capture_device' | 'tag';
}

export interface AppVersionEvent {
  gui_version: string;
}

export interface TrialEndedEvent {
  subscription_id: number;
  plan_name: string;
  end_time: string | null;
}

/** One of the user's subscriptions changed (a Stripe webhook, a cancellation). */
export interface SubscriptionChangedEvent {
  subscription_id: number;
  plan_name: string;
  status: string;
  is_trial: boolean;
  end_time: string | null;
}

/** The room of one tour's page (its guid) and of one creator's page. */
export function tourRoom(guid: string): string {
  return `tour:${guid}`;
}

export function creatorRoom(creatorId: number): string {
  return `creator:${creatorId}`;
}
