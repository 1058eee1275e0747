/**
 * Spec §2 "a daily featured-tour dialog that the user cannot close", §3 "Daily featured submission":
 * once a day a creator with at least one listed tour is asked to submit one to the daily
 * featured-tour programme. Submitting, or answering "Not today", is recorded locally per account for
 * that day, so the dialog does not come back until the next day. Days are UTC days, as the server
 * counts its one submission a day.
 */

/** What is kept under `dailyFeatured`: per user id, the last day the dialog was answered. */
export type DailyFeaturedRecord = Readonly<Record<string, string>>;

export function isDailyFeaturedRecord(value: unknown): value is DailyFeaturedRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((day) => typeof day === 'string')
  );
}

/** The stored text as a record; anything unreadable reads as no answers. */
export function parseRecord(raw: string | null): DailyFeaturedRecord {
  if (raw === null) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isDailyFeaturedRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** The UTC day of `now` as YYYY-MM-DD. */
export function dayKey(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Whether to ask: a creator with a listed tour who has not answered today. */
export function shouldOffer(record: DailyFeaturedRecord, userId: number, today: string, listedTours: number): boolean {
  return listedTours > 0 && record[String(userId)] !== today;
}

/** The record after the user answered today (older days of other accounts are dropped). */
export function answered(record: DailyFeaturedRecord, userId: number, today: string): DailyFeaturedRecord {
  const kept = Object.fromEntries(Object.entries(record).filter(([, day]) => day === today));
  return { ...kept, [String(userId)]: today };
}

export const SOCIAL_NETWORKS = ['instagram', 'facebook', 'twitter', 'youtube', 'linkedin'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
export const DESCRIPTION_MAX = 4000;
export const LINK_MAX = 2048;

export interface SubmissionValues {
  guid: string | null;
  description: string;
  links: Record<SocialNetwork, string>;
  consent: boolean;
}

export const EMPTY_SUBMISSION: SubmissionValues = {
  guid: null,
  description: '',
  links: { instagram: '', facebook: '', twitter: '', youtube: '', linkedin: '' },
  consent: false,
};

export type SubmissionErrorKey =
  | 'dailyFeatured.errors.tourRequired'
  | 'dailyFeatured.errors.descriptionLength'
  | 'dailyFeatured.errors.https'
  | 'dailyFeatured.errors.linkLength';

/** The server's rules, checked first here: a tour, a description within limits, https:// links. */
export function validateSubmission(values: SubmissionValues): Record<string, SubmissionErrorKey> {
  const errors: Record<string, SubmissionErrorKey> = {};
  if (!values.guid) errors.guid = 'dailyFeatured.errors.tourRequired';
  if (values.description.trim().length > DESCRIPTION_MAX) errors.description = 'dailyFeatured.errors.descriptionLength';
  for (const network of SOCIAL_NETWORKS) {
    const link = values.links[network].trim();
    if (link === '') continue;
    if (link.length > LINK_MAX) errors[`links.${network}`] = 'dailyFeatured.errors.linkLength';
    else if (!/^https:\/\/\S+\.\S+/i.test(link)) errors[`links.${network}`] = 'dailyFeatured.errors.https';
  }
  return errors;
}

/** POST send-tour-today body (TourTodayBody): empty links are left out. */
export function submissionPayload(values: SubmissionValues) {
  const links = Object.fromEntries(
    SOCIAL_NETWORKS.map((network) => [network, values.links[network].trim()] as const).filter(([, link]) => link !== ''),
  );
  const description = values.description.trim();
  return { guid: values.guid ?? '', description: description || null, social_links: links, consent: values.consent };
}
