import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { renderWithApp } from '../../../testing/render';
import { EMPTY_MEDIA_FORM, type MediaFormValues } from '../model/mediaForm';
import { MediaForm } from './MediaForm';

const LINK = 'https://kuula.co/share/7lM2j';
const FILLED: MediaFormValues = {
  ...EMPTY_MEDIA_FORM,
  vendorId: '9',
  link: LINK,
  title: 'Opera house roof',
  mediaTypeId: '1',
  categoryId: '2',
  addressStr: 'Oslo, Norway',
  addressId: 'place.1',
  previewPicture: '/uploads/previews/p-card.jpg',
};

const DICTIONARIES: Record<string, unknown> = {
  '/v2/vendors/allowed-vendors': {
    data: [
      {
        vendor_id: 9,
        vendor_name: 'Kuula',
        link_header: 'https://kuula.co/share/7lM2j',
        group_name: 'Panoramas',
        preview_picture_required: false,
        is_white_label: false,
        website: 'https://kuula.co',
        link_pattern: null,
        embed_template: null,
        embed_kind: 'iframe',
        is_custom: false,
        status: 'approved',
        parent_vendor_id: null,
      },
    ],
  },
  '/v2/categories/': { data: [{ id: 2, name: 'Landmarks', image_search: null, source_image_search: null, subcategories: [] }] },
  '/v2/categories/media-types': { data: [{ id: 1, name: '360 Panorama' }] },
  '/v2/categories/capture-devices': { data: [] },
  '/v2/config/': { restrict_access: false, images_approval: false },
  '/v2/virtualtours/link_exists': { exists: false, guid: null },
  '/v2/virtualtours/discover': { data: { OpenGraph: { image: '', title: 'Opera house roof', description: '' }, address_id: null, address_str: null } },
};

/** A fetch answering the dictionaries, and the save call with the given status and body. */
function stubServer(saveStatus: number, saveBody: unknown) {
  const saves: unknown[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(String(input));
    const { pathname } = new URL(request.url);
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (pathname === '/v2/virtualtours/' && request.method === 'POST') {
      saves.push(await request.json());
      return json(saveStatus, saveBody);
    }
    return pathname in DICTIONARIES ? json(200, DICTIONARIES[pathname]) : json(404, { message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return saves;
}

const submit = () => fireEvent.click(screen.getByTestId('media-form-submit'));

describe('the media form', () => {
  // Mantine's autosizing textarea listens for web fonts, which jsdom does not have.
  beforeAll(() => {
    if (!('fonts' in document)) {
      Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
    }
  });

  it('names every missing field of an empty form (spec §5)', async () => {
    stubServer(201, { message: 'Saved' });
    renderWithApp(<MediaForm mode="add" onDone={() => undefined} />);
    submit();
    expect(await screen.findByText('Host is required')).toBeInTheDocument();
    expect(screen.getAllByText('This field is required').length).toBeGreaterThanOrEqual(4); // link, title, media type, category
    expect(screen.getByText('Adrress is required')).toBeInTheDocument();
  });

  it("shows 'Error: {message}' on a 208 answer and keeps the form", async () => {
    stubServer(208, { message: 'Link already exists', data: null, pending: false, fields: {} });
    renderWithApp(<MediaForm mode="add" initial={FILLED} onDone={() => undefined} />);
    submit();
    expect(await screen.findByText('Error: Link already exists')).toBeInTheDocument();
    expect(screen.getByDisplayValue('Opera house roof')).toBeInTheDocument();
  });

  it('sends the spec §3 write payload and clears the form after a successful add', async () => {
    const saves = stubServer(201, { message: 'Your tour waits for approval', data: null, pending: true, fields: {} });
    const onDone = vi.fn();
    renderWithApp(<MediaForm mode="add" initial={FILLED} onDone={onDone} />);
    submit();
    const dialog = await screen.findByTestId('media-saved-dialog');
    expect(dialog).toHaveTextContent('Your tour waits for approval');
    expect(saves[0]).toMatchObject({
      vendor: 9,
      link: LINK,
      title: 'Opera house roof',
      media_type_id: 1,
      category_id: 2,
      address_str: 'Oslo, Norway',
      address_id: 'place.1',
      preview_picture: '/uploads/previews/p-card.jpg',
      is_active: true,
      approve_needed: true,
      tags: [],
    });
    await waitFor(() => expect(screen.queryByDisplayValue('Opera house roof')).not.toBeInTheDocument());
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
  });

  it('shows the server message and the failing field on a 400', async () => {
    stubServer(400, { message: 'Link is not right format', fields: { link: 'Link is not right format' } });
    renderWithApp(<MediaForm mode="add" initial={FILLED} onDone={() => undefined} />);
    submit();
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('Link is not right format')).toHaveLength(2)); // the dialog and the field
  });
});
