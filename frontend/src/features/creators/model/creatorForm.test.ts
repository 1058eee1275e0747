import type { CreatorProfileOut } from '../../../shared/api/generated/types.gen';
import { lettersIn, validateContact } from './contactForm';
import {
  clampScale,
  creatorSaveOutcome,
  emptyCreatorForm,
  type CreatorFormValues,
  formValuesToPayload,
  isHttpLink,
  logoFileProblem,
  profileToFormValues,
  serverFieldErrors,
  validateCreatorForm,
} from './creatorForm';

const valid: CreatorFormValues = {
  ...emptyCreatorForm('nordic_views'),
  creator_name: 'Nordic Views',
  logo: '/uploads/creator-logos/0123456789abcdef0123456789abcdef.png',
  area_served: ['Oslo'],
};

const profile: CreatorProfileOut = {
  id: 7,
  type: 'creator',
  userid: 42,
  user_name: 'nordic_views',
  platform_username: 'nordic_views',
  creator_name: 'Nordic Views',
  description: 'Fjords in 360.',
  logo: '/uploads/creator-logos/a.png',
  trusted: false,
  services: ['360 photography'],
  website: 'https://nordic.example',
  instagram: null,
  twitter: null,
  youtube: 'https://youtube.com/@nordic',
  facebook: null,
  linkedin: null,
  phone: '4712345678',
  contact_email: 'hello@nordic.example',
  creator_email: 'hello@nordic.example',
  views: 1,
  likes: 2,
  followers: 3,
  vt_count: 4,
  activeTours: 4,
  created_date: '2026-01-01T00:00:00Z',
  area_served: ['Oslo', 'Bergen'],
  default_view: 'map',
  img_settings: { bgColor: 'white', logoScale: 15, profileScale: 12 },
  is_active: true,
  joined_fb_group: true,
  featured_tours: [
    { id: 'b', title: 'B', preview_picture: null, position: 1 },
    { id: 'a', title: 'A', preview_picture: null, position: 0 },
  ],
  is_follow: false,
  is_owner: true,
  edit_pending: false,
};

describe('the creator profile form (spec §5 Creator)', () => {
  it('starts a new profile with the account’s username, a black background and scale 10', () => {
    const empty = emptyCreatorForm('grace_h');
    expect(empty.user_name).toBe('grace_h');
    expect(empty.bgColor).toBe('black');
    expect(empty.logoScale).toBe(10);
    expect(empty.default_view).toBe('grid');
  });

  it('accepts a complete profile', () => {
    expect(validateCreatorForm(valid)).toEqual({});
  });

  it('requires the location (area served), the username, the logo and a creator name', () => {
    const errors = validateCreatorForm(emptyCreatorForm(''));
    expect(errors).toEqual({
      creator_name: 'auth.errors.required',
      user_name: 'auth.errors.required',
      logo: 'creatorForm.errors.logo',
      area_served: 'creatorForm.errors.location',
    });
    expect(validateCreatorForm({ ...valid, area_served: ['  ', ''] }).area_served).toBe('creatorForm.errors.location');
  });

  it('applies the platform username rules (5 to 25, Latin letters, digits, . _ -)', () => {
    expect(validateCreatorForm({ ...valid, user_name: 'abc' }).user_name).toBe('auth.errors.usernameShort');
    expect(validateCreatorForm({ ...valid, user_name: 'a'.repeat(26) }).user_name).toBe('auth.errors.usernameLong');
    expect(validateCreatorForm({ ...valid, user_name: 'nordic views' }).user_name).toBe('auth.errors.usernameSymbols');
    expect(validateCreatorForm({ ...valid, user_name: 'nordic.views-1' }).user_name).toBeUndefined();
  });

  it('refuses profanity in the name, the description, the services and the website', () => {
    expect(validateCreatorForm({ ...valid, creator_name: 'Shit Tours' }).creator_name).toBe('creatorForm.errors.name');
    expect(validateCreatorForm({ ...valid, description: 'what the fuck' }).description).toBe('creatorForm.errors.description');
    expect(validateCreatorForm({ ...valid, services: ['bitch please'] }).services).toBe('creatorForm.errors.service');
    expect(validateCreatorForm({ ...valid, website: 'https://shit.example' }).website).toBe('creatorForm.errors.website');
  });

  it('checks the website and social links are http(s) links with a host', () => {
    expect(isHttpLink('https://nordic.example/about')).toBe(true);
    expect(isHttpLink('nordic.example')).toBe(true); // sent with https://
    expect(isHttpLink('javascript:alert(1)')).toBe(false);
    expect(isHttpLink('ftp://nordic.example')).toBe(false);
    expect(isHttpLink('https://user:secret@nordic.example')).toBe(false);
    expect(isHttpLink('not a link')).toBe(false);
    expect(validateCreatorForm({ ...valid, instagram: 'ftp://insta.example' }).instagram).toBe('creatorForm.errors.link');
    expect(validateCreatorForm({ ...valid, linkedin: '' }).linkedin).toBeUndefined();
  });

  it('allows at most 10 featured tours (the spec’s message)', () => {
    const ten = Array.from({ length: 10 }, (_, index) => `guid-${index}`);
    expect(validateCreatorForm({ ...valid, featured_tours: ten }).featured_tours).toBeUndefined();
    expect(validateCreatorForm({ ...valid, featured_tours: [...ten, 'one-more'] }).featured_tours).toBe('creatorForm.errors.featured');
  });

  it('checks the contact address and the phone only when given', () => {
    expect(validateCreatorForm({ ...valid, contact_email: 'nope' }).contact_email).toBe('auth.errors.email');
    expect(validateCreatorForm({ ...valid, phone: '+47 123' }).phone).toBe('auth.errors.phone');
    expect(validateCreatorForm({ ...valid, phone: '1'.repeat(21) }).phone).toBe('auth.errors.phone');
    expect(validateCreatorForm({ ...valid, contact_email: '', phone: '' })).toEqual({});
  });

  it('limits the lists to 20 entries of 200 characters', () => {
    expect(validateCreatorForm({ ...valid, services: Array.from({ length: 21 }, (_, i) => `s${i}`) }).services).toBe('creatorForm.errors.tooMany');
    expect(validateCreatorForm({ ...valid, area_served: ['x'.repeat(201)] }).area_served).toBe('creatorForm.errors.itemTooLong');
  });

  it('sends the creator payload: trimmed, links with a scheme, lists without blanks or repeats', () => {
    const payload = formValuesToPayload(
      { ...valid, creator_name: '  Nordic Views ', website: 'nordic.example', services: ['Drone', ' Drone ', ''], contact_email: 'hi@nordic.example', logoScale: 99 },
      { creatorId: 7, joinedGroup: true, profileScale: 12 },
    );
    expect(payload).toMatchObject({
      id: 7,
      creator_name: 'Nordic Views',
      user_name: 'nordic_views',
      website: 'https://nordic.example',
      instagram: null,
      services: ['Drone'],
      contact_email: 'hi@nordic.example',
      creator_email: 'hi@nordic.example',
      area_served: ['Oslo'],
      img_settings: { bgColor: 'black', logoScale: 30, profileScale: 12 },
      joined_fb_group: true,
      phone: null,
    });
    expect(formValuesToPayload(valid)).not.toHaveProperty('id');
  });

  it('prefills the edit form from the published profile, featured tours in their order', () => {
    const values = profileToFormValues(profile);
    expect(values).toMatchObject({
      creator_name: 'Nordic Views',
      user_name: 'nordic_views',
      bgColor: 'white',
      logoScale: 15,
      default_view: 'map',
      area_served: ['Oslo', 'Bergen'],
      featured_tours: ['a', 'b'],
      youtube: 'https://youtube.com/@nordic',
      instagram: '',
    });
    expect(validateCreatorForm(values)).toEqual({});
  });

  it('keeps the logo scale within 1 to 30 (shown divided by 10)', () => {
    expect(clampScale(0)).toBe(1);
    expect(clampScale(10.4)).toBe(10);
    expect(clampScale(45)).toBe(30);
    expect(clampScale(Number.NaN)).toBe(10);
  });

  it('reads the answers: 200 Updated, 201 AddEditPending, 409/400 the server’s message beside the fields', () => {
    expect(creatorSaveOutcome(200, { message: 'CreatorProfile.Updated', data: profile })).toEqual({ kind: 'updated', profile });
    expect(creatorSaveOutcome(201, { message: 'CreatorProfile.AddEditPending', data: null })).toEqual({ kind: 'pending', profile: null });
    expect(creatorSaveOutcome(409, { message: 'This creator name is already taken', fields: { creator_name: 'This creator name is already taken' } })).toEqual({
      kind: 'rejected',
      message: 'This creator name is already taken',
      fields: { creator_name: 'This creator name is already taken' },
    });
    expect(creatorSaveOutcome(400, { message: 'Invalid field', fields: { website: 'The link does not answer', platform_username: 'Taken', creator_email: 'Invalid email', unknown: 'x' } })).toEqual({
      kind: 'rejected',
      message: 'Invalid field',
      fields: { website: 'The link does not answer', user_name: 'Taken', contact_email: 'Invalid email' },
    });
    expect(creatorSaveOutcome(500, 'oops')).toEqual({ kind: 'rejected', message: null, fields: {} });
    expect(serverFieldErrors({ 'img_settings.bgColor': 'white or black' })).toEqual({ logo: 'white or black' });
  });

  it('refuses a logo file of the wrong kind or over 2 MB before uploading it', () => {
    expect(logoFileProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(logoFileProblem({ type: 'image/gif', size: 1000 })).toBe('type');
    expect(logoFileProblem({ type: 'image/webp', size: 3 * 1024 * 1024 })).toBe('size');
  });
});

describe('the contact form', () => {
  it('needs a name, an address and a message of at least 20 letters', () => {
    expect(validateContact({ name: '', email: 'x', subject: '', message: '1234567890 1234567890' })).toEqual({
      name: 'auth.errors.required',
      email: 'auth.errors.email',
      message: 'creatorContact.errors.short',
    });
    expect(lettersIn('Привет, как дела? 123')).toBe(13);
    expect(validateContact({ name: 'Ada', email: 'ada@example.com', subject: '', message: 'Could you capture our gallery next month?' })).toEqual({});
  });
});
