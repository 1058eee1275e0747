import { answered, dayKey, EMPTY_SUBMISSION, parseRecord, shouldOffer, submissionPayload, validateSubmission } from './dailyFeatured';

describe('daily featured-tour dialog', () => {
  it('counts days in UTC, as the server does', () => {
    expect(dayKey(new Date('2026-03-01T23:30:00-05:00'))).toBe('2026-03-02');
  });

  it('asks a creator with a listed tour once a day', () => {
    expect(shouldOffer({}, 7, '2026-03-02', 1)).toBe(true);
    expect(shouldOffer({}, 7, '2026-03-02', 0)).toBe(false);
    const record = answered({}, 7, '2026-03-02');
    expect(shouldOffer(record, 7, '2026-03-02', 3)).toBe(false);
    expect(shouldOffer(record, 8, '2026-03-02', 3)).toBe(true);
    expect(shouldOffer(record, 7, '2026-03-03', 3)).toBe(true);
  });

  it('keeps only today in the record, and reads a damaged one as empty', () => {
    expect(answered({ '7': '2026-03-01', '8': '2026-03-02' }, 9, '2026-03-02')).toEqual({ '8': '2026-03-02', '9': '2026-03-02' });
    expect(parseRecord('{"7":"2026-03-02"}')).toEqual({ '7': '2026-03-02' });
    expect(parseRecord('[1]')).toEqual({});
    expect(parseRecord('{"7":3}')).toEqual({});
    expect(parseRecord('not json')).toEqual({});
    expect(parseRecord(null)).toEqual({});
  });

  it('validates the submission', () => {
    expect(validateSubmission(EMPTY_SUBMISSION)).toEqual({ guid: 'dailyFeatured.errors.tourRequired' });
    const values = { ...EMPTY_SUBMISSION, guid: 'g1', links: { ...EMPTY_SUBMISSION.links, instagram: 'http://instagram.com/me', youtube: 'https://youtube.com/@me' } };
    expect(validateSubmission(values)).toEqual({ 'links.instagram': 'dailyFeatured.errors.https' });
    expect(validateSubmission({ ...values, description: 'x'.repeat(4001), links: EMPTY_SUBMISSION.links })).toEqual({ description: 'dailyFeatured.errors.descriptionLength' });
  });

  it('sends only the links given', () => {
    const values = { guid: 'g1', description: '  A garden  ', consent: true, links: { ...EMPTY_SUBMISSION.links, youtube: ' https://youtube.com/@me ' } };
    expect(submissionPayload(values)).toEqual({ guid: 'g1', description: 'A garden', social_links: { youtube: 'https://youtube.com/@me' }, consent: true });
    expect(submissionPayload({ ...EMPTY_SUBMISSION, guid: 'g2' })).toEqual({ guid: 'g2', description: null, social_links: {}, consent: false });
  });
});
