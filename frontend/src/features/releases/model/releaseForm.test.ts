import type { Release } from '../api/releasesApi';
import { draftOf, emptyDraft, newItem, toReleaseIn, validateRelease } from './releaseForm';

const RELEASE: Release = {
  id: 5,
  releaseName: 'Spring update',
  releaseVersion: 'Version 2.4.0',
  releaseDate: '2026-03-02',
  releaseTime: null,
  listNewItems: [{ id: 1, title: 'Updates page', type: 'New', description: null }],
  listImprovedItems: [],
  listFixedItems: [],
  listComingSoonItems: [{ id: 2, title: 'Offline tours', type: 'Coming Soon', description: 'Soon' }],
};

describe('the release form rules', () => {
  it('asks for a name, a version number and item titles, and checks the time', () => {
    const draft = { ...emptyDraft(), version: 'Version ', time: '9:30' };
    draft.lists.listFixedItems = [newItem('  ')];
    expect(validateRelease(draft)).toEqual({
      releaseName: 'required',
      releaseVersion: 'required',
      releaseTime: 'timeFormat',
      'listFixedItems.0.title': 'required',
    });
  });

  it('accepts a complete release and flags texts over the limits', () => {
    const draft = { ...emptyDraft(), name: 'Spring', version: '2.4', time: '09:30' };
    expect(validateRelease(draft)).toEqual({});
    draft.lists.listNewItems = [newItem('t'.repeat(256))];
    expect(validateRelease(draft)).toEqual({ 'listNewItems.0.title': 'tooLong' });
  });

  it('round-trips a release through the draft into the wire shape', () => {
    const body = toReleaseIn(draftOf(RELEASE));
    expect(body).toEqual({
      id: 5,
      releaseName: 'Spring update',
      releaseVersion: 'Version 2.4.0',
      releaseDate: '2026-03-02',
      releaseTime: null,
      listNewItems: [{ title: 'Updates page', description: null }],
      listImprovedItems: [],
      listFixedItems: [],
      listComingSoonItems: [{ title: 'Offline tours', description: 'Soon' }],
    });
  });
});
