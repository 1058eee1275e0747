import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';

import { closeLoginDialog, useLoginDialogOpen } from '../../../shared/auth/loginDialog';
import { resetFilterState, updateFilterState } from '../../../shared/filters/filterState';
import { RealtimeConnection, type TokenSource } from '../../../shared/socket/realtimeConnection';
import { useRealtimeConnection } from '../../../shared/socket/useRealtime';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { fakeSocketFactory } from '../../../testing/fakeSocket';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import type { CreatorMapProps, CreatorPageParts, CreatorToursProps } from '../components/FullProfile';
import type { CreatorProfile } from '../model/creatorProfile';
import { CreatorPage } from './CreatorPage';

const BY_ID = 'GET /v2/creators/by-id/8';
const FOLLOW = 'POST /v2/creators/followers';

const profile: CreatorProfile = {
  id: 8,
  userid: 4,
  creator_name: 'Nordic Views',
  platform_username: 'nordic',
  description: 'Fjords and lighthouses in 360°.',
  logo: null,
  trusted: true,
  services: ['Drone tours', '3D capture'],
  website: 'https://www.nordic.example/',
  instagram: 'https://instagram.com/nordic',
  youtube: 'javascript:alert(1)',
  area_served: ['Oslo', 'Bergen'],
  default_view: 'grid',
  img_settings: { bgColor: 'white', logoScale: 15, profileScale: 10 },
  views: 15_400,
  likes: 1_250,
  followers: 41,
  vt_count: 21,
  type: 'creator',
  user_name: 'nordic',
  twitter: null,
  facebook: null,
  linkedin: null,
  phone: null,
  contact_email: 'hello@nordic.example',
  creator_email: 'hello@nordic.example',
  activeTours: 21,
  created_date: '2026-01-02T03:04:05Z',
  is_active: true,
  joined_fb_group: false,
  featured_tours: [],
  is_follow: false,
  is_owner: false,
  edit_pending: false,
};

/** Stand-ins for the parts the app wires in: they show what the page asked of them. */
function ToursDouble({ userId, layout, empty }: CreatorToursProps) {
  return (
    <div data-testid="tours-double" data-user={userId} data-layout={layout}>
      {empty}
    </div>
  );
}
function MapDouble({ userId }: CreatorMapProps) {
  return <div data-testid="map-double" data-user={userId} />;
}
const parts: CreatorPageParts = { Tours: ToursDouble, Map: MapDouble };

function LoginProbe() {
  return useLoginDialogOpen() ? <div data-testid="login-open" /> : null;
}

function signIn(claims: Record<string, unknown> = { sub: '7' }) {
  window.localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken(claims));
}

function openPage(path = '/creator/8/nordic') {
  return renderWithApp(
    <>
      <CreatorPage parts={parts} />
      <LoginProbe />
    </>,
    { path, routePath: '/creator/:creatorId/:creatorName?' },
  );
}

describe('the creator page', () => {
  afterEach(() => {
    resetFilterState();
    closeLoginDialog();
    window.history.replaceState(null, '', '/');
  });

  it('shows the short view: logo on its background and scale, name, counts, services, area and safe links', async () => {
    stubApi({ [BY_ID]: { body: { data: profile } } });
    openPage();
    expect(await screen.findByTestId('creator-name')).toHaveTextContent('Nordic Views');
    expect(screen.getByText('@nordic')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Trusted creator' })).toBeInTheDocument();
    const logo = screen.getByTestId('creator-logo');
    expect(logo).toHaveAttribute('data-background', 'white');
    expect(logo.style.getPropertyValue('--logo-scale')).toBe('1.5');
    expect(screen.getByTestId('creator-count-tours')).toHaveTextContent(/tours\s*21/);
    expect(screen.getByTestId('creator-count-views')).toHaveTextContent('15K');
    expect(screen.getByTestId('creator-count-likes')).toHaveTextContent('1.2K');
    expect(screen.getByTestId('creator-count-followers')).toHaveTextContent('41');
    expect(screen.getByText('Fjords and lighthouses in 360°.')).toBeInTheDocument();
    expect(screen.getByText('Drone tours')).toBeInTheDocument();
    expect(screen.getByText('Bergen')).toBeInTheDocument();
    const links = within(screen.getByTestId('creator-about')).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['https://www.nordic.example/', 'https://instagram.com/nordic']);
    expect(links[0]).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });

  it('shows the featured tours in the creator’s order, linked to their pages', async () => {
    const featured = [
      { id: 'b2', title: 'Lighthouse at dusk', preview_picture: null, position: 1 },
      { id: 'a1', title: 'Fjord from the ridge', preview_picture: null, position: 0 },
    ];
    stubApi({ [BY_ID]: { body: { data: { ...profile, featured_tours: featured } } } });
    openPage();
    const links = await screen.findAllByTestId('creator-featured-tour');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/virtualtours/a1', '/virtualtours/b2']);
    expect(links[0]).toHaveTextContent('Fjord from the ridge');
  });

  it('opens by name through creator-by-creator-name', async () => {
    const api = stubApi({ 'GET /v2/creators/creator-by-creator-name/nordic': { body: { data: profile } } });
    openPage('/creator/nordic');
    expect(await screen.findByTestId('creator-name')).toHaveTextContent('Nordic Views');
    expect(api.calls.map((call) => call.path)).not.toContain('/v2/creators/by-id/nordic');
  });

  it('says so when the creator does not exist', async () => {
    stubApi({});
    openPage('/creator/999');
    expect(await screen.findByTestId('creator-not-found')).toHaveTextContent('Creator not found');
    expect(screen.getByRole('link', { name: 'Discover tours' })).toHaveAttribute('href', '/feed');
  });

  it('opens the creator’s default view, unless the link names one, and keeps the choice in the link', async () => {
    stubApi({ [BY_ID]: { body: { data: { ...profile, default_view: 'map' } } } });
    const { unmount } = openPage();
    expect(await screen.findByTestId('map-double')).toHaveAttribute('data-user', '4');
    unmount();

    stubApi({ [BY_ID]: { body: { data: { ...profile, default_view: 'map' } } } });
    openPage('/creator/8/nordic?view=list&countries=FR');
    expect(await screen.findByTestId('tours-double')).toHaveAttribute('data-layout', 'list');

    window.history.replaceState(null, '', '/creator/8/nordic?countries=FR');
    fireEvent.click(screen.getByRole('radio', { name: 'Grid' }));
    expect(screen.getByTestId('tours-double')).toHaveAttribute('data-layout', 'grid');
    expect(window.location.search).toBe('?countries=FR&view=grid');
  });

  it('tells a creator without tours from filters that match nothing', async () => {
    stubApi({ [BY_ID]: { body: { data: { ...profile, vt_count: 0 } } } });
    const { unmount } = openPage();
    expect(await screen.findByTestId('creator-no-tours')).toHaveTextContent('No tours yet');
    expect(screen.queryByTestId('tours-double')).not.toBeInTheDocument();
    unmount();

    updateFilterState({ countries: ['FR'], categories: [3] });
    stubApi({ [BY_ID]: { body: { data: profile } } });
    openPage();
    const noMatch = await screen.findByTestId('creator-no-match');
    expect(screen.getByTestId('creator-clear-filters')).toHaveTextContent('Clear 2 filters');
    fireEvent.click(within(noMatch).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.queryByTestId('creator-clear-filters')).not.toBeInTheDocument());
  });

  it('lets a signed-in visitor follow, with the exact count from the server', async () => {
    signIn();
    const api = stubApi({
      [BY_ID]: { body: { data: profile } },
      [FOLLOW]: { body: { creator_id: 8, userid: 7, followers: 43, isFollow: true } },
    });
    openPage();
    const follow = await screen.findByTestId('creator-follow');
    expect(follow).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(follow);
    await waitFor(() => expect(screen.getByTestId('creator-follow')).toHaveAttribute('aria-pressed', 'true'));
    await waitFor(() => expect(screen.getByTestId('creator-count-followers')).toHaveTextContent('43'));
    expect(api.callsTo(FOLLOW)[0]?.body).toEqual({ userid: 7, creator_id: 8 });
  });

  it('asks guests to sign in, and shows no follow button to admins or on one’s own profile', async () => {
    const api = stubApi({ [BY_ID]: { body: { data: profile } } });
    const guest = openPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in to follow' }));
    expect(await screen.findByTestId('login-open')).toBeInTheDocument();
    expect(api.callsTo(FOLLOW)).toHaveLength(0);
    guest.unmount();

    signIn({ sub: '1', is_admin: true });
    const admin = openPage();
    await screen.findByTestId('creator-name');
    expect(screen.queryByTestId('creator-follow')).not.toBeInTheDocument();
    admin.unmount();

    signIn({ sub: '4' });
    openPage();
    await screen.findByTestId('creator-name');
    expect(screen.queryByTestId('creator-follow')).not.toBeInTheDocument();
  });

  it('gives its owner the edit mode: the form prefilled, an edit that waits for approval said so', async () => {
    signIn({ sub: '4', creator_id: 8 });
    const owned = { ...profile, is_owner: true, edit_pending: true };
    const api = stubApi({
      [BY_ID]: { body: { data: owned } },
      'GET /v2/virtualtours/user/4': { body: { data: [], total_items: 0, limit: 200, offset: 0 } },
      'PUT /v2/creators/': { status: 201, body: { message: 'CreatorProfile.AddEditPending', pending: true, approval_item_id: 3, data: owned } },
    });
    openPage();
    // The published profile stays while an edit waits; the owner is told.
    expect(await screen.findByTestId('creator-edit-pending-banner')).toBeInTheDocument();
    expect(screen.queryByTestId('creator-follow')).not.toBeInTheDocument();
    expect(screen.queryByTestId('creator-contact')).not.toBeInTheDocument();

    fireEvent.click(screen.getByTestId('creator-edit'));
    const form = await screen.findByTestId('creator-form');
    expect(form).toHaveAttribute('data-mode', 'edit');
    expect(screen.getByTestId('creator-form-name')).toHaveValue('Nordic Views');
    expect(screen.getByTestId('creator-edit-replaces')).toBeInTheDocument();
    const preview = screen.getByTestId('creator-form-preview');
    expect(preview).toHaveAttribute('data-background', 'white');
    expect(preview).toHaveAttribute('data-scale', '15');
    // A logo is required (spec §5): the profile here has none, so the browser says so before sending.
    fireEvent.click(screen.getByTestId('creator-form-submit'));
    expect(await screen.findByText('Logo is required')).toBeInTheDocument();
    expect(api.callsTo('PUT /v2/creators/')).toHaveLength(0);
  });

  it('sends an owner’s edit and says it waits for approval (201 AddEditPending)', async () => {
    signIn({ sub: '4', creator_id: 8 });
    const owned = { ...profile, youtube: null, is_owner: true, logo: '/uploads/creator-logos/0123456789abcdef0123456789abcdef.png' };
    const api = stubApi({
      [BY_ID]: { body: { data: owned } },
      'GET /v2/virtualtours/user/4': { body: { data: [], total_items: 0, limit: 200, offset: 0 } },
      'PUT /v2/creators/': { status: 201, body: { message: 'CreatorProfile.AddEditPending', pending: true, approval_item_id: 3, data: owned } },
    });
    openPage();
    fireEvent.click(await screen.findByTestId('creator-edit'));
    fireEvent.change(await screen.findByTestId('creator-form-name'), { target: { value: 'Nordic Views Studio' } });
    fireEvent.click(screen.getByTestId('creator-form-submit'));
    expect(await screen.findByTestId('creator-edit-pending')).toHaveTextContent('Until then visitors see your published profile');
    const sent = api.callsTo('PUT /v2/creators/')[0]?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ id: 8, creator_name: 'Nordic Views Studio', area_served: ['Oslo', 'Bergen'], img_settings: { bgColor: 'white', logoScale: 15, profileScale: 10 } });
  });

  it('shows the server’s reasons beside the fields of the edit form (400)', async () => {
    signIn({ sub: '4', creator_id: 8 });
    const owned = { ...profile, youtube: null, is_owner: true, logo: '/uploads/creator-logos/0123456789abcdef0123456789abcdef.png' };
    stubApi({
      [BY_ID]: { body: { data: owned } },
      'GET /v2/virtualtours/user/4': { body: { data: [], total_items: 0, limit: 200, offset: 0 } },
      'PUT /v2/creators/': { status: 400, body: { message: 'This link does not answer: timed out', fields: { website: 'This link does not answer: timed out' } } },
    });
    openPage();
    fireEvent.click(await screen.findByTestId('creator-edit'));
    fireEvent.click(await screen.findByTestId('creator-form-submit'));
    expect(await screen.findByText('This link does not answer: timed out')).toBeInTheDocument();
    expect(screen.getByTestId('creator-form-website')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('creator-form-problem')).toHaveTextContent('Please fix 1 field marked below.');
  });

  it('lets visitors write to the creator through the contact form', async () => {
    const api = stubApi({
      [BY_ID]: { body: { data: profile } },
      'POST /v2/creators/creator-message': { body: { message: 'Your message has been sent', creator_id: 8 } },
    });
    openPage();
    fireEvent.click(await screen.findByTestId('creator-contact'));
    fireEvent.change(await screen.findByTestId('contact-name'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByTestId('contact-email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByTestId('contact-message'), { target: { value: 'Too short' } });
    fireEvent.click(screen.getByTestId('contact-send'));
    expect(await screen.findByText('The message must have at least 20 letters')).toBeInTheDocument();
    expect(api.callsTo('POST /v2/creators/creator-message')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('contact-message'), { target: { value: 'Could you capture our lighthouse in May?' } });
    fireEvent.click(screen.getByTestId('contact-send'));
    await waitFor(() => expect(api.callsTo('POST /v2/creators/creator-message')).toHaveLength(1));
    expect(api.callsTo('POST /v2/creators/creator-message')[0]?.body).toEqual({
      creator_id: 8,
      name: 'Ada',
      email: 'ada@example.com',
      subject: null,
      message: 'Could you capture our lighthouse in May?',
    });
  });

  it('copies the page’s link, without filters, and counts the share', async () => {
    const api = stubApi({ [BY_ID]: { body: { data: profile } }, 'POST /v2/creators/post_shares': { body: { id: 8, shared: 1 } } });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    window.history.replaceState(null, '', '/creator/8/nordic?countries=FR');
    openPage();
    fireEvent.click(await screen.findByTestId('creator-share'));
    fireEvent.click(await screen.findByTestId('creator-copy-link'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/creator/8/nordic`));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST /v2/creators/post_shares')[0]?.body).toEqual({ id: 8, channel: 'link' }));
  });
});

describe('the creator page on a phone', () => {
  const matchMedia = window.matchMedia;
  beforeEach(() => {
    window.matchMedia = (query: string) => ({ ...matchMedia(query), matches: query.includes('max-width') });
  });
  afterEach(() => {
    window.matchMedia = matchMedia;
  });

  it('shows the tours and the profile as two tabs', async () => {
    stubApi({ [BY_ID]: { body: { data: profile } } });
    openPage();
    expect(await screen.findByTestId('tours-double')).toBeInTheDocument();
    expect(screen.queryByTestId('creator-about')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('creator-tab-profile'));
    expect(await screen.findByTestId('creator-about')).toHaveTextContent('Fjords and lighthouses');
    expect(screen.queryByTestId('tours-double')).not.toBeInTheDocument();
  });
});

describe('the creator page, live', () => {
  const tokens: TokenSource = { current: () => 'guest-token', subscribe: () => () => undefined, renew: async () => null };

  function LivePage({ connection }: { connection: RealtimeConnection }) {
    useRealtimeConnection(connection);
    return <CreatorPage parts={parts} />;
  }

  it('moves the counts as other visitors follow and view', async () => {
    stubApi({ [BY_ID]: { body: { data: profile } } });
    const { factory, sockets } = fakeSocketFactory();
    renderWithApp(<LivePage connection={new RealtimeConnection(tokens, factory)} />, {
      path: '/creator/8',
      routePath: '/creator/:creatorId/:creatorName?',
    });
    const socket = sockets[0]!;
    act(() => socket.accept());
    await screen.findByTestId('creator-name');

    await act(async () => {
      socket.push('creator:counters', { id: 8, followers: 42, views: 20_000, likes: 1_300 });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.getByTestId('creator-count-followers')).toHaveAttribute('data-value', '42');
    expect(screen.getByTestId('creator-count-views')).toHaveTextContent('20K');
  });
});
