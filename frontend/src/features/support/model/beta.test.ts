import { betaAnswersBody, betaValues, validateBetaValues } from './beta';

const ANSWERED = {
  creates_tours: 'yes',
  camera: '',
  industry: 'Real estate',
  tour_count: '11-50',
  hosting_platforms: 'Own website',
  use_case: 'Show listings on a map',
  country: 'Portugal',
  heard_from: 'A colleague',
  feedback_frequency: 'Every week',
};

describe('the beta-tester questionnaire rules', () => {
  it('starts empty, or from the answers given before', () => {
    expect(Object.values(betaValues(null)).every((value) => value === '')).toBe(true);
    expect(betaValues({ industry: 'Tourism', camera: null, tour_count: 'none' })).toMatchObject({ industry: 'Tourism', camera: '', tour_count: 'none', country: '' });
  });

  it('asks for every question but the camera', () => {
    expect(validateBetaValues(ANSWERED)).toEqual({});
    const blank = validateBetaValues(betaValues(null));
    expect(Object.keys(blank).sort()).toEqual(
      ['creates_tours', 'industry', 'tour_count', 'hosting_platforms', 'use_case', 'country', 'heard_from', 'feedback_frequency'].sort(),
    );
    expect(new Set(Object.values(blank))).toEqual(new Set(['required']));
    expect(validateBetaValues({ ...ANSWERED, country: '   ' })).toEqual({ country: 'required' });
  });

  it('refuses an answer longer than the server keeps, the optional one too', () => {
    expect(validateBetaValues({ ...ANSWERED, camera: 'x'.repeat(1001), use_case: 'y'.repeat(1000) })).toEqual({ camera: 'tooLong' });
  });

  it('sends trimmed answers, an empty one as null', () => {
    expect(betaAnswersBody({ ...ANSWERED, country: '  Spain ' })).toEqual({ ...ANSWERED, camera: null, country: 'Spain' });
  });
});
