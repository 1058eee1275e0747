import type { AdOut } from '../../../shared/api/generated/types.gen';
import { adFormPayload, adToFormValues, DESCRIPTION_MAX, EMPTY_AD_FORM, isHttpsLink, TITLE_MAX, validateAdForm } from './adForm';
import { adStates } from './adStates';
import { adSelectionReducer } from './adSelection';
import { adFieldErrors, adSaveOutcome } from './saveOutcome';

const FILLED = { ...EMPTY_AD_FORM, link: 'https://drones.example.com/offer', title: 'Drone footage', previewPicture: '/uploads/previews/a-card.jpg' };
const FREE = { linkTaken: false };

describe('the ad form rules (app/ads/service.py check_form)', () => {
  it('names every missing required field', () => {
    expect(validateAdForm(EMPTY_AD_FORM, FREE)).toEqual({ link: 'linkRequired', title: 'titleRequired', previewPicture: 'imageRequired' });
    expect(validateAdForm(FILLED, FREE)).toEqual({});
  });

  it('accepts only https addresses of a website, as the server does', () => {
    expect(isHttpsLink('https://example.com')).toBe(true);
    expect(isHttpsLink('https://example.com/a?b=c')).toBe(true);
    expect(isHttpsLink('http://example.com')).toBe(false);
    expect(isHttpsLink('https://localhost')).toBe(false);
    expect(isHttpsLink('https://exa mple.com')).toBe(false);
    expect(validateAdForm({ ...FILLED, link: 'http://example.com' }, FREE).link).toBe('linkHttps');
    expect(validateAdForm({ ...FILLED, link: `https://example.com/${'a'.repeat(2048)}` }, FREE).link).toBe('linkTooLong');
  });

  it('refuses a link another ad has', () => {
    expect(validateAdForm(FILLED, { linkTaken: true }).link).toBe('linkTaken');
  });

  it('keeps to the lengths and the profanity rule', () => {
    expect(validateAdForm({ ...FILLED, title: 'x'.repeat(TITLE_MAX + 1) }, FREE).title).toBe('titleTooLong');
    expect(validateAdForm({ ...FILLED, title: 'x'.repeat(TITLE_MAX) }, FREE).title).toBeUndefined();
    expect(validateAdForm({ ...FILLED, title: 'shit happens' }, FREE).title).toBe('titleInvalid');
    expect(validateAdForm({ ...FILLED, description: 'y'.repeat(DESCRIPTION_MAX + 1) }, FREE).description).toBe('descriptionTooLong');
    const eleven = Array.from({ length: 11 }, (_, id) => ({ id, name: `t${id}` }));
    expect(validateAdForm({ ...FILLED, tags: eleven }, FREE).tags).toBe('tooManyTags');
  });

  it('sends the AdWrite payload, trimmed, an empty description as null', () => {
    expect(adFormPayload({ ...FILLED, title: '  Drone footage ', tags: [{ id: 3, name: 'drones' }], isActive: false })).toEqual({
      link: 'https://drones.example.com/offer',
      title: 'Drone footage',
      description: null,
      preview_picture: '/uploads/previews/a-card.jpg',
      tags: [{ id: 3 }],
      is_active: false,
    });
  });

  it('fills the form from an ad to edit', () => {
    const ad = { link: 'https://a.example.com', title: 'A', description: null, preview_picture: '/p.jpg', tags: [{ id: 1, name: 'x' }], status: 'draft' } as unknown as AdOut;
    expect(adToFormValues(ad)).toEqual({ ...EMPTY_AD_FORM, link: 'https://a.example.com', title: 'A', previewPicture: '/p.jpg', tags: [{ id: 1, name: 'x' }], isActive: false });
  });
});

describe('what a save answer means', () => {
  it('tells waiting for approval, draft, published and a waiting edit apart', () => {
    expect(adSaveOutcome(201, { message: 'added', pending: true, data: { status: 'active' } })).toEqual({ kind: 'pending' });
    expect(adSaveOutcome(201, { message: 'added', pending: false, data: { status: 'draft' } })).toEqual({ kind: 'draft' });
    expect(adSaveOutcome(201, { message: 'added', pending: false, data: { status: 'active' } })).toEqual({ kind: 'published' });
    expect(adSaveOutcome(200, { message: 'waits', pending: true })).toEqual({ kind: 'editPending' });
  });

  it('keeps the message and the fields of a failure, mapped onto the form', () => {
    const outcome = adSaveOutcome(409, { message: 'Error: Link already exists', fields: { link: 'Error: Link already exists' } });
    expect(outcome).toEqual({ kind: 'failed', message: 'Error: Link already exists', fields: { link: 'Error: Link already exists' } });
    expect(adFieldErrors({ preview_picture: 'Image are required', 'tags.0.id': 'bad', platform_username: 'select user', other: 'x' })).toEqual({
      previewPicture: 'Image are required',
      tags: 'bad',
      onBehalfOf: 'select user',
    });
  });
});

describe('an ad’s states in Manage Ads', () => {
  it('says published only when served, and why an active ad is not', () => {
    expect(adStates({ status: 'active', approval_state: 'approved', edit_pending: false })).toEqual(['published']);
    expect(adStates({ status: 'active', approval_state: 'pending', edit_pending: false })).toEqual(['pending']);
    expect(adStates({ status: 'active', approval_state: 'rejected', edit_pending: false })).toEqual(['rejected']);
    expect(adStates({ status: 'draft', approval_state: 'pending', edit_pending: false })).toEqual(['draft', 'pending']);
    expect(adStates({ status: 'active', approval_state: 'approved', edit_pending: true })).toEqual(['published', 'editPending']);
  });
});

describe('the selection of ads', () => {
  it('toggles one, all, and forgets ads no longer shown', () => {
    let selected: ReadonlySet<number> = new Set();
    selected = adSelectionReducer(selected, { type: 'toggle', id: 1 });
    expect([...selected]).toEqual([1]);
    selected = adSelectionReducer(selected, { type: 'toggleAll', visible: [1, 2, 3] });
    expect([...selected]).toEqual([1, 2, 3]);
    selected = adSelectionReducer(selected, { type: 'keepOnly', visible: [2, 3, 4] });
    expect([...selected]).toEqual([2, 3]);
    expect(adSelectionReducer(new Set([1, 2]), { type: 'toggleAll', visible: [1, 2] }).size).toBe(0);
    expect(adSelectionReducer(selected, { type: 'clear' }).size).toBe(0);
  });
});
