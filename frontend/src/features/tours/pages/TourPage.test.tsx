import { fireEvent, screen, waitFor } from '@testing-library/react';

import type { PlayerParams, TourOut, VendorOut } from '../../../shared/api/generated/types.gen';
import { renderWithApp, stubFetch } from '../../../testing/render';
import { TourPage } from './TourPage';

const GUID = 'c0ffee';

const tour: TourOut = {
  guid: GUID,
  userid: 7,
  platform_username: 'nordic',
  creator_id: 3,
  address: { street: null, city: 'Oslo', province: null, zip: null, country: 'NO' },
  address_id: 'place.1',
  address_str: 'Oslo, Norway',
  coordinates: [59.91, 10.75],
  preview_picture: '/uploads/p-card.jpg',
  preview_picture_large: '/uploads/p-large.jpg',
  description: null,
  link: 'https://kuula.co/share/7lM2j',
  title: 'Opera house roof',
  vt_website: null,
  creator_website: null,
  third_party_creator: null,
  subcategory_id: null,
  media_type_id: 1,
  category_id: 2,
  tags: [{ id: 4, name: 'Architecture' }],
  camera_id: null,
  vendor: { id: 9, name: 'Kuula' },
  is_ai_generated: false,
  views: 1_234,
  likes: 0,
  shared: 0,
  saves: 2,
  status: 'active',
  visibility: 'public',
  approval_state: 'approved',
  edit_pending: false,
  is_featured: false,
  featured_order: null,
  provider_version: null,
  created_date: '2026-01-01T00:00:00Z',
  updated_date: '2026-01-01T00:00:00Z',
  is_owned: false,
};
const player: PlayerParams = { id: GUID, views: 15_400, likes: 0, shared: 3, saves: 2, user_like: 0, user_save: 0 };
const kuula: VendorOut = {
  vendor_id: 9,
  vendor_name: 'Kuula',
  link_header: null,
  group_name: 'Panoramas',
  preview_picture_required: false,
  is_white_label: true,
  website: 'https://kuula.co',
  link_pattern: '^https?://(?:www\\.)?kuula\\.co/(?:share|post)/(?P<id>[A-Za-z0-9]{5})/?(?:[?#&][^\\s]*)?$',
  embed_template: 'https://kuula.co/share/{id}?fs=1&vr=1&thumbs=1&info=0',
  embed_kind: 'iframe',
};

function routes(extra: Record<string, unknown> = {}) {
  return {
    [`/v2/virtualtours/${GUID}`]: tour,
    [`/v2/virtualtours/player/${GUID}`]: player,
    '/v2/virtualtours/post_view': { ...player, views: 15_401, counted: true },
    '/v2/vendors/': { data: [kuula] },
    '/v2/categories/': { data: [{ id: 2, name: 'Landmarks', image_search: null, source_image_search: null, subcategories: [] }] },
    [`/v2/user-recomendations/similar-media/${GUID}`]: [],
    ...extra,
  };
}

const renderTour = (guid = GUID) => renderWithApp(<TourPage />, { path: `/virtualtours/${guid}`, routePath: '/virtualtours/:id' });

describe('the tour page', () => {
  it('shows the tour with K/M counters and the no-description text, and counts the view once', async () => {
    const fetchMock = stubFetch(routes());
    renderTour();

    expect(await screen.findByTestId('tour-title')).toHaveTextContent('Opera house roof');
    expect(screen.getByTestId('tour-description')).toHaveTextContent('There is no description yet');
    await waitFor(() => expect(screen.getByTestId('count-views')).toHaveTextContent('15K'));
    expect(screen.getByTestId('tour-creator')).toHaveAttribute('href', '/creator/3/nordic');
    expect(screen.queryByTestId('edit-tour')).not.toBeInTheDocument();
    const views = fetchMock.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).endsWith('/post_view'));
    expect(views).toHaveLength(1);
  });

  it('keeps the counted view when the first player answer, read before the view, arrives after it', async () => {
    let viewAnswered: () => void = () => undefined;
    const viewed = new Promise<void>((resolve) => (viewAnswered = resolve));
    let playerCalls = 0;
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    const fallback = routes() as Record<string, unknown>;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
        if (path === `/v2/virtualtours/player/${GUID}`) {
          playerCalls += 1;
          if (playerCalls === 1) {
            // This read happened before the view was written: it only lands once the view has answered.
            await viewed;
            await new Promise((resolve) => setTimeout(resolve, 30));
            return json({ ...player, views: 100 });
          }
          return json({ ...player, views: 101 });
        }
        if (path === '/v2/virtualtours/post_view') {
          setTimeout(viewAnswered, 0);
          return json({ ...player, views: 101, counted: true });
        }
        return path in fallback ? json(fallback[path]) : new Response('{}', { status: 404 });
      }),
    );
    renderTour();
    await waitFor(() => expect(screen.getByTestId('count-views')).toHaveAttribute('data-value', '101'));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(screen.getByTestId('count-views')).toHaveAttribute('data-value', '101');
  });

  it("plays the host's embed, built from its rule, when asked", async () => {
    stubFetch(routes());
    renderTour();
    fireEvent.click(await screen.findByTestId('start-tour'));
    const frame = await screen.findByTitle('Opera house roof: virtual tour');
    expect(frame).toHaveAttribute('src', 'https://kuula.co/share/7lM2j?fs=1&vr=1&thumbs=1&info=0');
    expect(frame.getAttribute('sandbox')).toContain('allow-scripts');
  });

  it('offers the owner the edit button and hides their save button', async () => {
    stubFetch(routes({ [`/v2/virtualtours/${GUID}`]: { ...tour, is_owned: true, description: 'Up on the roof.' } }));
    renderTour();
    expect(await screen.findByTestId('edit-tour')).toBeInTheDocument();
    expect(screen.getByTestId('tour-description')).toHaveTextContent('Up on the roof.');
    expect(screen.queryByTestId('save-button')).not.toBeInTheDocument();
  });

  it("links the description's hashtags that are the tour's tags to the #tag search, and leaves the rest as text", async () => {
    const description = 'Dawn on the roof at #golden_hour, see https://example.com/roof#Architecture. #nope, C# and #GoldenHour again.';
    const tags = [
      { id: 4, name: 'Architecture', hashtag: null },
      { id: 8, name: 'Golden Hour', hashtag: 'GoldenHour' },
    ];
    stubFetch(routes({ [`/v2/virtualtours/${GUID}`]: { ...tour, description, tags } }));
    renderTour();
    const text = await screen.findByTestId('tour-description');
    expect(text).toHaveTextContent(description);
    const links = screen.getAllByTestId('hashtag-link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['#golden_hour', '/feed?tag=8'],
      ['#GoldenHour', '/feed?tag=8'],
    ]);
    expect(links[0]).toHaveAttribute('title', 'Tours tagged Golden Hour');
    // The tags below open the same search; the Popular tags page is one click away.
    expect(screen.getAllByTestId('tour-tag').map((badge) => badge.getAttribute('href'))).toEqual(['/feed?tag=4', '/feed?tag=8']);
    expect(screen.getByTestId('popular-tags-link')).toHaveAttribute('href', '/tags');
  });

  it('says when a tour cannot be found', async () => {
    stubFetch(routes());
    renderTour('missing');
    expect(await screen.findByTestId('tour-not-found')).toHaveTextContent('Unfortunately this Virtual Tour could not be found...');
  });
});
