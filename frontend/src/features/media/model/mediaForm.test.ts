import {
  canUseAddressAsTitle,
  EMPTY_MEDIA_FORM,
  formChanged,
  isLookupCandidate,
  type MediaFormContext,
  type MediaFormValues,
  parseNewCategory,
  subcategoriesOf,
  validateMediaForm,
} from './mediaForm';

const ADD: MediaFormContext = { mode: 'add', isAdmin: false, hostNeedsPicture: false, lookupFailed: false, linkTaken: false };
const EDIT: MediaFormContext = { ...ADD, mode: 'edit' };

const VALID: MediaFormValues = {
  ...EMPTY_MEDIA_FORM,
  vendorId: '1',
  link: 'https://my.matterport.com/show/?m=SxQL3iGyoDo',
  title: 'Old Town Hall',
  mediaTypeId: '2',
  categoryId: '3',
  addressStr: 'Kraków, Poland',
  addressId: 'place.1',
};

describe('validateMediaForm (spec §5 Media form)', () => {
  it('accepts a complete form', () => {
    expect(validateMediaForm(VALID, ADD)).toEqual({});
  });

  it('asks for the host, link, title, media type and category', () => {
    expect(validateMediaForm({ ...EMPTY_MEDIA_FORM, hasAddress: false }, ADD)).toEqual({
      vendorId: 'mediaForm.errors.hostRequired',
      link: 'mediaForm.errors.required',
      title: 'mediaForm.errors.required',
      mediaTypeId: 'mediaForm.errors.required',
      categoryId: 'mediaForm.errors.required',
    });
  });

  it('does not ask for the host when editing (it cannot change)', () => {
    expect(validateMediaForm({ ...VALID, vendorId: null }, EDIT)).toEqual({});
  });

  it('rejects a link that is no web address, and a taken link only when adding', () => {
    expect(validateMediaForm({ ...VALID, link: 'not a link' }, ADD).link).toBe('mediaForm.errors.linkFormat');
    expect(validateMediaForm({ ...VALID, link: 'ftp://example.com/x' }, ADD).link).toBe('mediaForm.errors.linkFormat');
    expect(validateMediaForm(VALID, { ...ADD, linkTaken: true }).link).toBe('mediaForm.errors.linkNotUnique');
    expect(validateMediaForm(VALID, { ...EDIT, linkTaken: true }).link).toBeUndefined();
  });

  it('refuses profanity in the title and description, and descriptions over 4000 characters', () => {
    expect(validateMediaForm({ ...VALID, title: 'Holy shit tower' }, ADD).title).toBe('mediaForm.errors.invalidTitle');
    expect(validateMediaForm({ ...VALID, description: 'what the fuck' }, ADD).description).toBe('mediaForm.errors.invalidDescription');
    expect(validateMediaForm({ ...VALID, description: 'a'.repeat(4000) }, ADD).description).toBeUndefined();
    expect(validateMediaForm({ ...VALID, description: 'a'.repeat(4001) }, ADD).description).toBe('mediaForm.errors.descriptionLength');
  });

  it('requires the image when the host demands it or the lookup failed', () => {
    expect(validateMediaForm(VALID, { ...ADD, hostNeedsPicture: true }).previewPicture).toBe('mediaForm.errors.imageRequired');
    expect(validateMediaForm(VALID, { ...ADD, lookupFailed: true }).previewPicture).toBe('mediaForm.errors.imageRequired');
    expect(validateMediaForm({ ...VALID, previewPicture: '/uploads/p.jpg' }, { ...ADD, lookupFailed: true })).toEqual({});
  });

  it("asks an admin to 'select user' when adding, not when editing", () => {
    const admin = { ...ADD, isAdmin: true };
    expect(validateMediaForm(VALID, admin).onBehalfOf).toBe('mediaForm.errors.selectUser');
    expect(validateMediaForm({ ...VALID, onBehalfOf: { userid: 4, platform_username: 'ada_l' } }, admin)).toEqual({});
    expect(validateMediaForm(VALID, { ...admin, mode: 'edit' })).toEqual({});
  });

  it('wants https:// websites', () => {
    expect(validateMediaForm({ ...VALID, vtWebsite: 'http://example.com' }, ADD).vtWebsite).toBe('mediaForm.errors.https');
    expect(validateMediaForm({ ...VALID, creatorWebsite: 'example.com' }, ADD).creatorWebsite).toBe('mediaForm.errors.https');
    expect(validateMediaForm({ ...VALID, vtWebsite: 'https://example.com/place' }, ADD)).toEqual({});
  });

  it('requires the address only for a physical place being added; a pin on the map is enough', () => {
    const noAddress = { ...VALID, addressStr: '', addressId: null };
    expect(validateMediaForm(noAddress, ADD).addressStr).toBe('mediaForm.errors.addressRequired');
    expect(validateMediaForm({ ...noAddress, hasAddress: false }, ADD)).toEqual({});
    expect(validateMediaForm({ ...noAddress, coordinate: '50.06,19.94' }, ADD)).toEqual({});
    expect(validateMediaForm(noAddress, EDIT)).toEqual({});
  });

  it('checks the new-category request in request mode, and still wants a category meanwhile', () => {
    const requesting = { ...VALID, newCategoryMode: true };
    expect(validateMediaForm({ ...requesting, categoryId: null, newCategory: 'Lighthouses' }, ADD)).toEqual({ categoryId: 'mediaForm.errors.required' });
    expect(validateMediaForm({ ...requesting, newCategory: '' }, ADD)).toEqual({ newCategory: 'mediaForm.errors.required' });
    expect(validateMediaForm({ ...requesting, newCategory: 'Lighthouses, Harbour, Extra' }, ADD)).toEqual({
      newCategory: 'mediaForm.errors.newCategory',
    });
    expect(validateMediaForm({ ...requesting, newCategory: 'Lighthouses, Harbour lights' }, ADD)).toEqual({});
  });

  it('allows at most 10 tags', () => {
    const tags = Array.from({ length: 11 }, (_, id) => ({ id, name: `t${id}`, source: 'manual' as const }));
    expect(validateMediaForm({ ...VALID, tags }, ADD).tags).toBe('mediaForm.errors.tooManyTags');
    expect(validateMediaForm({ ...VALID, tags: tags.slice(0, 10) }, ADD).tags).toBeUndefined();
  });
});

describe('new category requests', () => {
  it('reads a category and an optional subcategory separated by a comma', () => {
    expect(parseNewCategory('Lighthouses')).toEqual({ category: 'Lighthouses' });
    expect(parseNewCategory(' Lighthouses ,  Harbour lights ')).toEqual({ category: 'Lighthouses', subcategory: 'Harbour lights' });
    expect(parseNewCategory('Lighthouses,')).toBeNull();
    expect(parseNewCategory(', Harbour')).toBeNull();
    expect(parseNewCategory('a, b, c')).toBeNull();
  });
});

describe('form helpers', () => {
  it('offers address as title only with an address', () => {
    expect(canUseAddressAsTitle({ addressStr: '  ' })).toBe(false);
    expect(canUseAddressAsTitle({ addressStr: 'Paris, France' })).toBe(true);
  });

  it('lists only the subcategories of the chosen category', () => {
    const subcategories = [
      { id: 1, name: 'Churches', category_id: 1 },
      { id: 2, name: 'Beaches', category_id: 2 },
      { id: 3, name: 'Castles', category_id: 1 },
    ];
    expect(subcategoriesOf(subcategories, '1').map((item) => item.id)).toEqual([1, 3]);
    expect(subcategoriesOf(subcategories, null)).toEqual([]);
  });

  it('sees a change only when a value differs from the start (tag order aside)', () => {
    const start = { ...VALID, tags: [{ id: 1, name: 'a', source: 'manual' as const }, { id: 2, name: 'b', source: 'suggested' as const }] };
    expect(formChanged({ ...start }, start)).toBe(false);
    expect(formChanged({ ...start, tags: [...start.tags].reverse() }, start)).toBe(false);
    expect(formChanged({ ...start, title: 'Old Town Hall!' }, start)).toBe(true);
    expect(formChanged({ ...start, tags: start.tags.slice(1) }, start)).toBe(true);
  });

  it('looks up only real web addresses', () => {
    expect(isLookupCandidate('https://kuula.co/share/7lM2j')).toBe(true);
    expect(isLookupCandidate('kuula.co/share')).toBe(false);
    expect(isLookupCandidate('https://localhost')).toBe(false);
  });
});
