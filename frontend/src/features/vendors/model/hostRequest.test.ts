import { EMPTY_HOST_REQUEST, fillHost, hostProblem, hostRequestPayload, linkProblem, normaliseHost, sampleUnderHeading, validateHostRequest } from './hostRequest';

const GOOD = {
  ...EMPTY_HOST_REQUEST,
  vendor_name: 'Studio Tours',
  host: 'tours.studio.example',
  link_header: 'https://{host}/tours/',
  sample_tour: 'https://{host}/tours/lobby',
};

describe('host request rules (spec §3 Custom provider, §5 {host})', () => {
  it('accepts a well-formed request', () => {
    expect(validateHostRequest(GOOD)).toEqual({});
  });

  it('requires {host} in the link heading and the sample tour', () => {
    const errors = validateHostRequest({ ...GOOD, link_header: 'https://tours.studio.example/tours/', sample_tour: 'https://tours.studio.example/tours/lobby' });
    expect(errors.link_header).toBe('vendors.request.errors.mustIncludeHost');
    expect(errors.sample_tour).toBe('vendors.request.errors.mustIncludeHost');
  });

  it('wants web links on the host itself', () => {
    expect(linkProblem('ftp://{host}/x', 'tours.studio.example')).toBe('vendors.request.errors.notWeb');
    expect(linkProblem('https://evil.example/{host}', 'tours.studio.example')).toBe('vendors.request.errors.otherHost');
    expect(linkProblem('https://user@{host}/', 'tours.studio.example')).toBe('vendors.request.errors.notWeb');
    expect(linkProblem('https://www.{host}/t/', 'tours.studio.example')).toBeNull();
  });

  it('refuses IP addresses, local names and malformed hosts', () => {
    expect(hostProblem('')).toBe('vendors.request.errors.required');
    expect(hostProblem('10.0.0.1')).toBe('vendors.request.errors.hostIp');
    expect(hostProblem('printer.local')).toBe('vendors.request.errors.hostLocal');
    expect(hostProblem('localhost')).toBe('vendors.request.errors.hostInvalid');
    expect(hostProblem('tours')).toBe('vendors.request.errors.hostInvalid');
    expect(hostProblem('-bad.example')).toBe('vendors.request.errors.hostInvalid');
    expect(hostProblem('tours.studio.example:8443')).toBe('vendors.request.errors.hostIp');
    expect(hostProblem('tours.studio.example')).toBeNull();
  });

  it('reduces a pasted link to its host name', () => {
    expect(normaliseHost(' HTTPS://Tours.Studio.Example/tours/lobby?x=1 ')).toBe('tours.studio.example');
    expect(normaliseHost('tours.studio.example.')).toBe('tours.studio.example');
  });

  it('wants the sample tour under the heading', () => {
    expect(sampleUnderHeading('https://{host}/tours/', 'http://www.{host}/tours/lobby')).toBe(true);
    expect(validateHostRequest({ ...GOOD, sample_tour: 'https://{host}/other/lobby' }).sample_tour).toBe('vendors.request.errors.sampleNotUnderHeading');
  });

  it('needs a parent for an alternative version', () => {
    expect(validateHostRequest({ ...GOOD, alternative: true }).parent_vendor_id).toBe('vendors.request.errors.parentRequired');
    expect(validateHostRequest({ ...GOOD, alternative: true, parent_vendor_id: '3' })).toEqual({});
  });

  it('fills {host} and builds the POST body', () => {
    expect(fillHost('https://{host}/a/{host}', 'x.example')).toBe('https://x.example/a/x.example');
    expect(hostRequestPayload({ ...GOOD, host: 'https://Tours.Studio.Example/', alternate_version_name: 'ignored' })).toEqual({
      vendor_name: 'Studio Tours',
      host: 'tours.studio.example',
      link_header: 'https://{host}/tours/',
      sample_tour: 'https://{host}/tours/lobby',
      alternate_version_name: null,
      parent_vendor_id: null,
      is_custom: true,
    });
    expect(hostRequestPayload({ ...GOOD, alternative: true, parent_vendor_id: '3', alternate_version_name: ' White label ' })).toMatchObject({
      parent_vendor_id: 3,
      alternate_version_name: 'White label',
    });
  });
});
