import type { ConfigurationOut, SessionOut } from '../../../shared/api/generated/types.gen';
import {
  applyToConfigurations,
  applyToSessions,
  formFieldOf,
  formOf,
  formProblems,
  isActive,
  isCrawlerStatusEvent,
  NEW_CONFIGURATION,
  needsSigning,
  payloadOf,
} from './crawler';

function session(id: number, overrides: Partial<SessionOut> = {}): SessionOut {
  return {
    session_id: id,
    configuration_id: 1,
    status: 'running',
    total_tours: 3,
    new_tours: 2,
    pid: 'host:1',
    pages_fetched: 10,
    pages_failed: 0,
    pages_waiting: 5,
    started_at: '2026-11-25T07:00:00Z',
    finished_at: null,
    signed_at: null,
    error: null,
    scheduled_for: null,
    ...overrides,
  };
}

function configuration(id: number, last: SessionOut | null): ConfigurationOut {
  return {
    id,
    name: `Provider ${id}`,
    vendor_id: 4,
    vendor_name: 'Kuula',
    start_urls: ['https://kuula.co/explore'],
    sitemap_urls: [],
    rate_limit: 2,
    concurrency: 2,
    max_pages: 500,
    max_depth: 2,
    tour_link_pattern: null,
    schedule_cron: null,
    schedule_next_at: null,
    is_active: true,
    created_at: '2026-11-24T07:00:00Z',
    last_session: last,
  };
}

const push = { session_id: 7, configuration_id: 1, status: 'running', total_tours: 9, new_tours: 6, pages_fetched: 30, pages_failed: 1 };

describe('crawler sessions', () => {
  it('tells running sessions from ended ones, and ended ones not yet reviewed', () => {
    expect(isActive(session(1, { status: 'queued' }))).toBe(true);
    expect(isActive(session(1, { status: 'running' }))).toBe(true);
    expect(isActive(session(1, { status: 'finished' }))).toBe(false);
    expect(isActive(null)).toBe(false);
    expect(needsSigning(session(1, { status: 'stopped' }))).toBe(true);
    expect(needsSigning(session(1, { status: 'failed', signed_at: '2026-11-25T08:00:00Z' }))).toBe(false);
    expect(needsSigning(session(1, { status: 'running' }))).toBe(false);
  });

  it('reads only well-formed pushes', () => {
    expect(isCrawlerStatusEvent(push)).toBe(true);
    expect(isCrawlerStatusEvent({ ...push, session_id: '7' })).toBe(false);
    expect(isCrawlerStatusEvent(null)).toBe(false);
  });

  it('writes a push into the session it is about, counters never going back', () => {
    const sessions = [session(8), session(7)];
    const next = applyToSessions(sessions, push);
    expect(next?.[1]).toMatchObject({ status: 'running', total_tours: 9, new_tours: 6, pages_fetched: 30, pages_failed: 1 });
    expect(next?.[0]).toBe(sessions[0]);
    const late = applyToSessions(next ?? [], { ...push, total_tours: 4, new_tours: 1, pages_fetched: 12, status: 'finished' });
    expect(late?.[1]).toMatchObject({ status: 'finished', total_tours: 9, new_tours: 6, pages_fetched: 30 });
  });

  it('answers null for a session it does not show, so the page asks again', () => {
    expect(applyToSessions([session(8)], push)).toBeNull();
    expect(applyToConfigurations([configuration(1, session(8)), configuration(2, null)], push)).toBeNull();
  });

  it('writes a push into the configuration whose latest session it is', () => {
    const next = applyToConfigurations([configuration(1, session(7)), configuration(2, null)], push);
    expect(next?.[0]?.last_session).toMatchObject({ new_tours: 6, pages_fetched: 30 });
    expect(next?.[1]?.last_session).toBeNull();
  });
});

describe('the configuration form', () => {
  const filled = { ...NEW_CONFIGURATION, name: ' Kuula ', vendorId: '4', startUrls: 'https://kuula.co/explore\n\n  https://kuula.co/new  ', sitemapUrls: '' };

  it('asks for a name, a provider and something to crawl', () => {
    expect(formProblems(NEW_CONFIGURATION)).toEqual({ name: 'nameRequired', vendorId: 'providerRequired', startUrls: 'nothingToCrawl' });
    expect(formProblems(filled)).toEqual({});
  });

  it('takes http(s) addresses only, within the bounds', () => {
    expect(formProblems({ ...filled, startUrls: 'kuula.co/explore' }).startUrls).toBe('notAnAddress');
    expect(formProblems({ ...filled, sitemapUrls: 'ftp://kuula.co/sitemap.xml' }).sitemapUrls).toBe('notAnAddress');
    expect(formProblems({ ...filled, sitemapUrls: Array.from({ length: 21 }, (_, n) => `https://k.co/${n}.xml`).join('\n') }).sitemapUrls).toBe('tooManySitemaps');
    expect(formProblems({ ...filled, rateLimit: -1 }).rateLimit).toBe('rate');
    expect(formProblems({ ...filled, rateLimit: 0 }).rateLimit).toBeUndefined();
    expect(formProblems({ ...filled, concurrency: 17 }).concurrency).toBe('concurrency');
    expect(formProblems({ ...filled, maxPages: 0 }).maxPages).toBe('maxPages');
    expect(formProblems({ ...filled, maxDepth: 2.5 }).maxDepth).toBe('maxDepth');
  });

  it('sends one address a line, trimmed, and empty optional texts as null', () => {
    expect(payloadOf(filled, null)).toEqual({
      name: 'Kuula',
      vendor_id: 4,
      start_urls: ['https://kuula.co/explore', 'https://kuula.co/new'],
      sitemap_urls: [],
      rate_limit: 1,
      concurrency: 2,
      max_pages: 10_000,
      max_depth: 3,
      tour_link_pattern: null,
      schedule_cron: null,
      is_active: true,
    });
    expect(payloadOf({ ...filled, tourLinkPattern: ' ^https://kuula ', scheduleCron: '0 3 * * 1' }, 12)).toMatchObject({ id: 12, tour_link_pattern: '^https://kuula', schedule_cron: '0 3 * * 1' });
  });

  it('opens a saved configuration as it is', () => {
    const values = formOf(configuration(3, null));
    expect(values).toMatchObject({ name: 'Provider 3', vendorId: '4', startUrls: 'https://kuula.co/explore', rateLimit: 2, maxPages: 500 });
    expect(payloadOf(values, 3)).toMatchObject({ id: 3, vendor_id: 4, start_urls: ['https://kuula.co/explore'] });
  });

  it("puts the server's field errors on the form's fields", () => {
    expect(formFieldOf('start_urls.1')).toBe('startUrls');
    expect(formFieldOf('tour_link_pattern')).toBe('tourLinkPattern');
    expect(formFieldOf('id')).toBeNull();
  });
});
