import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
/**
 * The rules of a custom host request as the server checks them (app/vendors/hosts.py; spec §3
 * "Custom provider", §5 "Provider link heading and sample tour must include {host}"), checked in the
 * form first so the user sees them while typing. The server repeats every check (and resolves the
 * host, which only it can).
 */

export const HOST_PLACEHOLDER = '{host}';
export const NAME_MAX = 100;
export const HEADING_MAX = 500;
export const SAMPLE_MAX = 2048;
const HOST_MAX = 253;

export interface HostRequestValues {
  vendor_name: string;
  host: string;
  link_header: string;
  sample_tour: string;
  /** An alternative version of a listed host (e.g. its white-label edition under your domain). */
  alternative: boolean;
  parent_vendor_id: string | null;
  alternate_version_name: string;
}

export const EMPTY_HOST_REQUEST: HostRequestValues = {
  vendor_name: '',
  host: '',
  link_header: 'https://{host}/',
  sample_tour: 'https://{host}/',
  alternative: false,
  parent_vendor_id: null,
  alternate_version_name: '',
};

export type HostRequestErrorKey =
  | 'vendors.request.errors.required'
  | 'vendors.request.errors.tooLong'
  | 'vendors.request.errors.hostInvalid'
  | 'vendors.request.errors.hostIp'
  | 'vendors.request.errors.hostLocal'
  | 'vendors.request.errors.mustIncludeHost'
  | 'vendors.request.errors.notWeb'
  | 'vendors.request.errors.otherHost'
  | 'vendors.request.errors.sampleNotUnderHeading'
  | 'vendors.request.errors.parentRequired';

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home', '.corp', '.home.arpa', '.test'];
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{2,59})$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** Lower case, no surrounding space or trailing dot; a pasted link is reduced to its host name. */
export function normaliseHost(raw: string): string {
  let host = raw.trim().toLowerCase();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//.exec(host);
  if (scheme) {
    host = host.slice(scheme[0].length).split(/[/?#]/)[0] ?? '';
  }
  return host.replace(/\.+$/, '');
}

export function hostProblem(host: string): HostRequestErrorKey | null {
  if (host === '') return 'vendors.request.errors.required';
  if (IPV4.test(host) || host.includes(':') || host.startsWith('[')) {
    return host.includes('/') ? 'vendors.request.errors.hostInvalid' : 'vendors.request.errors.hostIp';
  }
  if (host.length > HOST_MAX || /[/@?# \t]/.test(host)) return 'vendors.request.errors.hostInvalid';
  const labels = host.split('.');
  const last = labels[labels.length - 1] ?? '';
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || !TLD.test(last)) return 'vendors.request.errors.hostInvalid';
  if (host === 'localhost' || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'vendors.request.errors.hostLocal';
  return null;
}

/** The template with the host filled in, as the host's links will read. */
export function fillHost(template: string, host: string): string {
  return template.trim().split(HOST_PLACEHOLDER).join(host);
}

/** A link heading or sample tour: it carries {host}, and filled in it is a web link on that host. */
export function linkProblem(template: string, host: string): HostRequestErrorKey | null {
  if (template.trim() === '') return 'vendors.request.errors.required';
  if (!template.includes(HOST_PLACEHOLDER)) return 'vendors.request.errors.mustIncludeHost';
  // Without a valid host the filled link cannot be judged yet: the host field says what is wrong.
  const probe = hostProblem(host) === null ? host : 'example.com';
  const link = fillHost(template, probe);
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return 'vendors.request.errors.notWeb';
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || /\s/.test(link) || url.username || url.password) {
    return 'vendors.request.errors.notWeb';
  }
  if (url.hostname !== probe && url.hostname !== `www.${probe}`) return 'vendors.request.errors.otherHost';
  return null;
}

export type HostRequestErrors = Partial<Record<keyof HostRequestValues, HostRequestErrorKey>>;

export function validateHostRequest(values: HostRequestValues): HostRequestErrors {
  const errors: HostRequestErrors = {};
  const name = values.vendor_name.trim();
  if (name === '') errors.vendor_name = 'vendors.request.errors.required';
  else if (name.length > NAME_MAX) errors.vendor_name = 'vendors.request.errors.tooLong';
  const host = normaliseHost(values.host);
  const hostError = hostProblem(host);
  if (hostError) errors.host = hostError;
  const heading = linkProblem(values.link_header, host);
  if (heading) errors.link_header = heading;
  else if (values.link_header.trim().length > HEADING_MAX) errors.link_header = 'vendors.request.errors.tooLong';
  const sample = linkProblem(values.sample_tour, host);
  if (sample) errors.sample_tour = sample;
  else if (values.sample_tour.trim().length > SAMPLE_MAX) errors.sample_tour = 'vendors.request.errors.tooLong';
  else if (!heading && !sampleUnderHeading(values.link_header, values.sample_tour)) errors.sample_tour = 'vendors.request.errors.sampleNotUnderHeading';
  if (values.alternative) {
    if (!values.parent_vendor_id) errors.parent_vendor_id = 'vendors.request.errors.parentRequired';
    if (values.alternate_version_name.trim().length > NAME_MAX) errors.alternate_version_name = 'vendors.request.errors.tooLong';
  }
  return errors;
}

/** The sample is one of the host's tour links, so it starts with the heading (http/https and www. aside). */
export function sampleUnderHeading(heading: string, sample: string): boolean {
  const strip = (link: string) => link.trim().replace(/^https?:\/\/(?:www\.)?/i, '');
  return strip(sample).startsWith(strip(heading));
}

/** POST /v2/vendors/ body (HostRequestIn): a custom host of the caller's own. */
export function hostRequestPayload(values: HostRequestValues) {
  return {
    vendor_name: values.vendor_name.trim(),
    host: normaliseHost(values.host),
    link_header: values.link_header.trim(),
    sample_tour: values.sample_tour.trim(),
    alternate_version_name: values.alternative ? values.alternate_version_name.trim() || null : null,
    parent_vendor_id: values.alternative && values.parent_vendor_id ? Number(values.parent_vendor_id) : null,
    is_custom: true,
  };
}
