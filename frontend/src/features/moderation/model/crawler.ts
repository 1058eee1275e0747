import type { ConfigurationOut, ConfigurationWrite, SessionOut } from '../../../shared/api/generated/types.gen';
import type { CrawlerStatusEvent } from '../../../shared/socket/events';

/** The server's bounds (app/crawler/schemas.py). */
export const CRAWL_LIMITS = {
  maxStartUrls: 50,
  maxSitemaps: 20,
  maxRate: 100,
  maxConcurrency: 16,
  maxPages: 100_000,
  maxDepth: 10,
} as const;

export type SessionStatus = 'queued' | 'running' | 'stopped' | 'finished' | 'failed';

const ACTIVE: ReadonlySet<string> = new Set(['queued', 'running']);

/** Queued or running: it may be stopped, not started again. */
export function isActive(session: Pick<SessionOut, 'status'> | null | undefined): boolean {
  return session != null && ACTIVE.has(session.status);
}

/** An ended session an admin has not acknowledged yet ("signed", spec §7 sign). */
export function needsSigning(session: Pick<SessionOut, 'status' | 'signed_at'> | null | undefined): boolean {
  return session != null && !ACTIVE.has(session.status) && session.signed_at == null;
}

export function isCrawlerStatusEvent(data: unknown): data is CrawlerStatusEvent {
  if (typeof data !== 'object' || data === null) return false;
  const event = data as Record<string, unknown>;
  return (
    typeof event.session_id === 'number' &&
    typeof event.status === 'string' &&
    typeof event.total_tours === 'number' &&
    typeof event.new_tours === 'number'
  );
}

/** A session with the pushed counters (counters never go back: a late push of an older state is ignored for them). */
function merged(session: SessionOut, event: CrawlerStatusEvent): SessionOut {
  return {
    ...session,
    status: event.status,
    total_tours: Math.max(session.total_tours, event.total_tours),
    new_tours: Math.max(session.new_tours, event.new_tours),
    pages_fetched: Math.max(session.pages_fetched, event.pages_fetched ?? session.pages_fetched),
    pages_failed: Math.max(session.pages_failed, event.pages_failed ?? session.pages_failed),
  };
}

/** The sessions list with a push applied; null when the push is about a session the list lacks (ask again). */
export function applyToSessions(sessions: readonly SessionOut[], event: CrawlerStatusEvent): SessionOut[] | null {
  if (!sessions.some((session) => session.session_id === event.session_id)) return null;
  return sessions.map((session) => (session.session_id === event.session_id ? merged(session, event) : session));
}

/** The configurations with a push applied to the one whose latest session it is; null when none is (ask again). */
export function applyToConfigurations(configurations: readonly ConfigurationOut[], event: CrawlerStatusEvent): ConfigurationOut[] | null {
  const known = configurations.some((configuration) => configuration.last_session?.session_id === event.session_id);
  if (!known) return null;
  return configurations.map((configuration) =>
    configuration.last_session?.session_id === event.session_id ? { ...configuration, last_session: merged(configuration.last_session, event) } : configuration,
  );
}

// ------------------------------------------------------------------------------ the configuration form

export interface ConfigurationForm {
  name: string;
  vendorId: string | null;
  startUrls: string;
  sitemapUrls: string;
  rateLimit: number;
  concurrency: number;
  maxPages: number;
  maxDepth: number;
  tourLinkPattern: string;
  scheduleCron: string;
  isActive: boolean;
}

export const NEW_CONFIGURATION: ConfigurationForm = {
  name: '',
  vendorId: null,
  startUrls: '',
  sitemapUrls: '',
  rateLimit: 1,
  concurrency: 2,
  maxPages: 10_000,
  maxDepth: 3,
  tourLinkPattern: '',
  scheduleCron: '',
  isActive: true,
};

export function formOf(configuration: ConfigurationOut | null): ConfigurationForm {
  if (configuration === null) return NEW_CONFIGURATION;
  return {
    name: configuration.name,
    vendorId: String(configuration.vendor_id),
    startUrls: configuration.start_urls.join('\n'),
    sitemapUrls: configuration.sitemap_urls.join('\n'),
    rateLimit: configuration.rate_limit ?? NEW_CONFIGURATION.rateLimit,
    concurrency: configuration.concurrency ?? NEW_CONFIGURATION.concurrency,
    maxPages: configuration.max_pages ?? NEW_CONFIGURATION.maxPages,
    maxDepth: configuration.max_depth ?? NEW_CONFIGURATION.maxDepth,
    tourLinkPattern: configuration.tour_link_pattern ?? '',
    scheduleCron: configuration.schedule_cron ?? '',
    isActive: configuration.is_active,
  };
}

/** One URL a line; blank lines and surrounding spaces do not count. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export type FormProblem =
  | 'nameRequired'
  | 'providerRequired'
  | 'nothingToCrawl'
  | 'notAnAddress'
  | 'tooManyStartUrls'
  | 'tooManySitemaps'
  | 'rate'
  | 'concurrency'
  | 'maxPages'
  | 'maxDepth';

/** The problems the form shows before sending (the server checks them all again, and the link pattern). */
export function formProblems(values: ConfigurationForm): Partial<Record<keyof ConfigurationForm, FormProblem>> {
  const problems: Partial<Record<keyof ConfigurationForm, FormProblem>> = {};
  const starts = linesOf(values.startUrls);
  const sitemaps = linesOf(values.sitemapUrls);
  if (values.name.trim() === '') problems.name = 'nameRequired';
  if (values.vendorId === null) problems.vendorId = 'providerRequired';
  if (starts.length === 0 && sitemaps.length === 0) problems.startUrls = 'nothingToCrawl';
  else if (!starts.every(isWebAddress)) problems.startUrls = 'notAnAddress';
  else if (starts.length > CRAWL_LIMITS.maxStartUrls) problems.startUrls = 'tooManyStartUrls';
  if (!sitemaps.every(isWebAddress)) problems.sitemapUrls = 'notAnAddress';
  else if (sitemaps.length > CRAWL_LIMITS.maxSitemaps) problems.sitemapUrls = 'tooManySitemaps';
  if (!(values.rateLimit >= 0 && values.rateLimit <= CRAWL_LIMITS.maxRate)) problems.rateLimit = 'rate';
  if (!(Number.isInteger(values.concurrency) && values.concurrency >= 1 && values.concurrency <= CRAWL_LIMITS.maxConcurrency)) problems.concurrency = 'concurrency';
  if (!(Number.isInteger(values.maxPages) && values.maxPages >= 1 && values.maxPages <= CRAWL_LIMITS.maxPages)) problems.maxPages = 'maxPages';
  if (!(Number.isInteger(values.maxDepth) && values.maxDepth >= 0 && values.maxDepth <= CRAWL_LIMITS.maxDepth)) problems.maxDepth = 'maxDepth';
  return problems;
}

export function payloadOf(values: ConfigurationForm, id: number | null): ConfigurationWrite {
  return {
    ...(id === null ? {} : { id }),
    name: values.name.trim(),
    vendor_id: Number(values.vendorId),
    start_urls: linesOf(values.startUrls),
    sitemap_urls: linesOf(values.sitemapUrls),
    rate_limit: values.rateLimit,
    concurrency: values.concurrency,
    max_pages: values.maxPages,
    max_depth: values.maxDepth,
    tour_link_pattern: values.tourLinkPattern.trim() || null,
    schedule_cron: values.scheduleCron.trim() || null,
    is_active: values.isActive,
  };
}

/** The server names list fields with their index (`start_urls.2`): the form shows it on the list's field. */
export function formFieldOf(serverField: string): keyof ConfigurationForm | null {
  const base = serverField.split('.')[0];
  const fields: Record<string, keyof ConfigurationForm> = {
    name: 'name',
    vendor_id: 'vendorId',
    start_urls: 'startUrls',
    sitemap_urls: 'sitemapUrls',
    rate_limit: 'rateLimit',
    concurrency: 'concurrency',
    max_pages: 'maxPages',
    max_depth: 'maxDepth',
    tour_link_pattern: 'tourLinkPattern',
    schedule_cron: 'scheduleCron',
    is_active: 'isActive',
  };
  return base !== undefined && base in fields ? (fields[base] ?? null) : null;
}
