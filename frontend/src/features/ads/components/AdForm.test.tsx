import { fireEvent, screen, waitFor } from '@testing-library/react';

import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { AdForm } from './AdForm';
import type { AdFormRequest } from './AdFormDialog';
import { testAd } from './testAds';

const LINK = 'https://drones.example.com/offer';
const FREE_LINK = { 'GET /v2/ads/link_exists': { body: { exists: false, id: null } } };
const UPLOAD = {
  'POST /v2/ads/preview-image': { status: 201, body: { path: '/uploads/previews/new-card.jpg', large: '/uploads/previews/new-large.jpg', message: 'Saved', pending: false, source_type: 'png' } },
};

function signIn(claims: Record<string, unknown> = { sub: '7', creator_id: 4 }) {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken(claims));
}

function renderForm(request: AdFormRequest = { mode: 'add', onBehalfOf: null }) {
  const onDone = vi.fn();
  const onSaved = vi.fn();
  renderWithApp(<AdForm request={request} onDone={onDone} onSaved={onSaved} />);
  return { onDone, onSaved };
}

const type = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });
const linkInput = () => screen.getByTestId('ad-link');
const submit = () => fireEvent.click(screen.getByTestId('ad-form-submit'));

async function uploadPicture() {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [new File(['png'], 'drone.png', { type: 'image/png' })] } });
  await screen.findByTestId('ad-image-preview');
}

async function fillValidAd() {
  type(linkInput(), LINK);
  type(screen.getByTestId('ad-title'), 'Drone footage');
  await uploadPicture();
  await waitFor(() => expect(linkInput()).toHaveAttribute('data-link-check', 'free'));
}

describe('the ad form', () => {
  beforeAll(() => {
    if (!('fonts' in document)) {
      Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
    }
  });
  beforeEach(() => signIn());
  afterEach(() => vi.unstubAllGlobals());

  it('names the missing fields and sends nothing', async () => {
    const api = stubApi(FREE_LINK);
    renderForm();
    submit();
    expect(await screen.findByText('Link is required')).toBeInTheDocument();
    expect(screen.getByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('A preview picture is required')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('asks for https and checks, once typing pauses, whether another ad has the link', async () => {
    const api = stubApi({ 'GET /v2/ads/link_exists': { body: { exists: true, id: null } } });
    renderForm();
    type(linkInput(), 'http://drones.example.com');
    submit();
    expect(await screen.findByText('The link must start with https:// and name a website')).toBeInTheDocument();
    expect(api.callsTo('GET /v2/ads/link_exists')).toHaveLength(0);

    type(linkInput(), 'https://drones.example.co');
    type(linkInput(), LINK);
    expect(await screen.findByText('Another ad already uses this link')).toBeInTheDocument();
    const checks = api.callsTo('GET /v2/ads/link_exists');
    expect(checks.map((call) => call.search.get('link'))).toEqual([LINK]); // debounced: the last link only
  });

  it('adds the ad, says it waits for approval and refreshes the list', async () => {
    const api = stubApi({
      ...FREE_LINK,
      ...UPLOAD,
      'POST /v2/ads/': { status: 201, body: { message: 'Your ad has been added and waits', pending: true, data: testAd({ approval_state: 'pending' }), fields: {} } },
    });
    const { onDone, onSaved } = renderForm();
    await fillValidAd();
    submit();

    expect(await screen.findByText('Your ad is saved and waits for an administrator’s approval')).toBeInTheDocument();
    expect(api.callsTo('POST /v2/ads/')[0]?.body).toEqual({
      link: LINK,
      title: 'Drone footage',
      description: null,
      preview_picture: '/uploads/previews/new-card.jpg',
      tags: [],
      is_active: true,
    });
    expect(onSaved).toHaveBeenCalled();
    expect(onDone).toHaveBeenCalled();
  });

  it('shows the fields a 400 names in place', async () => {
    stubApi({ ...FREE_LINK, ...UPLOAD, 'POST /v2/ads/': { status: 400, body: { message: 'Invalid Title', fields: { title: 'Invalid Title' } } } });
    const { onDone } = renderForm();
    await fillValidAd();
    submit();
    expect(await screen.findByText('Invalid Title')).toBeInTheDocument();
    expect(screen.getByTestId('ad-title')).toHaveAttribute('aria-invalid', 'true');
    expect(onDone).not.toHaveBeenCalled();
  });

  it('lets an admin add the ad for the user chosen in Manage Ads, published at once', async () => {
    signIn({ sub: '1', is_admin: true });
    const api = stubApi({
      ...FREE_LINK,
      ...UPLOAD,
      'POST /v2/ads/on-behalf-of': { status: 201, body: { message: 'Your ad has been added', pending: false, data: testAd(), fields: {} } },
    });
    renderForm({ mode: 'add', onBehalfOf: { userid: 7, platform_username: 'ada_l' } });
    expect(screen.getByTestId('ad-on-behalf-of')).toHaveValue('ada_l');
    await fillValidAd();
    submit();
    expect(await screen.findByText('Your ad is published')).toBeInTheDocument();
    expect(api.callsTo('POST /v2/ads/on-behalf-of')[0]?.body).toMatchObject({ userid: 7, platform_username: 'ada_l', title: 'Drone footage' });
  });

  it('saves an edit of a published ad, which waits while the old version stays', async () => {
    const ad = testAd({ id: 9, tags: [{ id: 3, name: 'drones' }] });
    const api = stubApi({ 'PUT /v2/ads/9': { status: 200, body: { message: 'waits', pending: true, data: ad, fields: {} } } });
    renderForm({ mode: 'edit', ad });
    // Its own link is not checked against itself.
    expect(linkInput()).toHaveAttribute('data-link-check', 'idle');
    type(screen.getByTestId('ad-title'), 'Drone footage, 4K');
    submit();
    expect(await screen.findByText('Your changes wait for an administrator’s approval; the published ad stays until then')).toBeInTheDocument();
    expect(api.callsTo('PUT /v2/ads/9')[0]?.body).toMatchObject({ title: 'Drone footage, 4K', tags: [{ id: 3 }], is_active: true });
    expect(api.callsTo('GET /v2/ads/link_exists')).toHaveLength(0);
  });

  it('refuses a picture of the wrong type before uploading', async () => {
    const api = stubApi(FREE_LINK);
    renderForm();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    fireEvent.change(input!, { target: { files: [new File(['gif'], 'anim.gif', { type: 'image/gif' })] } });
    expect(await screen.findByText('Choose a JPG, PNG or PDF file')).toBeInTheDocument();
    expect(api.callsTo('POST /v2/ads/preview-image')).toHaveLength(0);
  });
});
