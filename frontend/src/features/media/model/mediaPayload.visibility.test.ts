import type { TourOut } from '../../../shared/api/generated/types.gen';
import { EMPTY_MEDIA_FORM } from './mediaForm';
import { formValuesToPayload, tourToFormValues } from './mediaPayload';

const context = { mode: 'add' as const, guid: null, isContentManager: false };

/** Issue 18 part 4: the form sets who finds the tour (public, unlisted or a draft). */
describe('the visibility the media form sends', () => {
  it('publishes publicly by default', () => {
    expect(formValuesToPayload(EMPTY_MEDIA_FORM, context)).toMatchObject({ is_active: true, visibility: 'public' });
  });

  it('sends unlisted, and a draft keeps the visibility it will have', () => {
    expect(formValuesToPayload({ ...EMPTY_MEDIA_FORM, visibility: 'unlisted' }, context)).toMatchObject({ is_active: true, visibility: 'unlisted' });
    expect(formValuesToPayload({ ...EMPTY_MEDIA_FORM, visibility: 'unlisted', asDraft: true }, context)).toMatchObject({ is_active: false, visibility: 'unlisted' });
  });

  it('opens an existing tour with its visibility and state', () => {
    const tour = { vendor: { id: 1, name: 'Kuula' }, tags: [], media_type_id: 1, category_id: 1, subcategory_id: null, camera_id: null } as unknown as TourOut;
    expect(tourToFormValues({ ...tour, visibility: 'unlisted', status: 'draft' })).toMatchObject({ visibility: 'unlisted', asDraft: true });
    expect(tourToFormValues({ ...tour, visibility: 'public', status: 'active' })).toMatchObject({ visibility: 'public', asDraft: false });
  });
});
