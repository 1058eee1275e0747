import { formFieldErrors, saveOutcome } from './saveOutcome';

describe('saveOutcome (spec §8 media save answers)', () => {
  it('201: the server message; adding clears the form, editing does not', () => {
    expect(saveOutcome(201, { message: 'Tour sent for approval' }, 'add')).toEqual({ kind: 'created', message: 'Tour sent for approval', clearForm: true, hashtagsLeftOut: [] });
    expect(saveOutcome(201, { message: 'Saved' }, 'edit')).toEqual({ kind: 'created', message: 'Saved', clearForm: false, hashtagsLeftOut: [] });
    expect(saveOutcome(201, null, 'add')).toEqual({ kind: 'created', message: null, clearForm: true, hashtagsLeftOut: [] });
  });

  it('200: the edit waits for approval', () => {
    expect(saveOutcome(200, { message: 'x' }, 'edit')).toEqual({ kind: 'pending', hashtagsLeftOut: [] });
    // Hashtags past the limit of 10 tags come back by name, to be told.
    expect(saveOutcome(201, { message: 'Saved', hashtags_left_out: ['sunset', 3] }, 'edit')).toMatchObject({ hashtagsLeftOut: ['sunset'] });
    expect(saveOutcome(200, { hashtags_left_out: ['castle'] }, 'edit')).toEqual({ kind: 'pending', hashtagsLeftOut: ['castle'] });
  });

  it("208: 'Error: {message}', never prefixed twice", () => {
    expect(saveOutcome(208, { message: 'Link already exists' }, 'add')).toEqual({ kind: 'duplicate', message: 'Error: Link already exists' });
    expect(saveOutcome(208, { message: 'Error: Link already exists' }, 'add')).toEqual({ kind: 'duplicate', message: 'Error: Link already exists' });
  });

  it('404: pick the place on the map', () => {
    expect(saveOutcome(404, { message: 'Address not found' }, 'add')).toEqual({ kind: 'pickLocation' });
  });

  it.each([400, 402, 409, 500])('%i: something went wrong, with the fields the server named', (status) => {
    expect(saveOutcome(status, { message: 'Link is not right format', fields: { link: 'Link is not right format', n: 1 } }, 'add')).toEqual({
      kind: 'failed',
      message: 'Link is not right format',
      fields: { link: 'Link is not right format' },
    });
  });
});

describe('formFieldErrors', () => {
  it('maps wire names to form fields', () => {
    expect(formFieldErrors({ media_type_id: 'Required', 'tags.3': 'Unknown tag', address_id: 'Unknown', coordinate: 'Bad' })).toEqual({
      mediaTypeId: 'Required',
      tags: 'Unknown tag',
      addressStr: 'Unknown',
    });
  });
});
