import { act, fireEvent, screen, waitFor } from '@testing-library/react';

import type { CreatorCard as CreatorCardData, MediaCard as MediaCardData } from '../../../shared/api/generated/types.gen';
import { closeLoginDialog, useLoginDialogOpen } from '../../../shared/auth/loginDialog';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { CreatorCard } from './CreatorCard';
import { MediaCard } from './MediaCard';

const media: MediaCardData = {
  type: 'vt',
  guid: 'a1b2',
  title: 'Hermitage Museum',
  preview_picture: null,
  views: 500,
  saves: 9,
  is_save: false,
  is_owned: false,
  created_ago: '2 days ago',
  media_type_id: 1,
  userid: 3,
};
const creator: CreatorCardData = {
  type: 'creator',
  id: 8,
  creator_name: 'Nordic Views',
  platform_username: 'nordic',
  logo: null,
  img_settings: { bgColor: 'white', logoScale: 10 },
  followers: 0,
  vt_count: 21,
  views: 999,
  is_follow: false,
  locations: [],
  userid: 4,
};
const SAVES = 'POST /v2/virtualtours/post_saves';
const counters = { id: 'a1b2', views: 500, likes: 0, shared: 0 };

function LoginProbe() {
  return useLoginDialogOpen() ? <div data-testid="login-open" /> : null;
}

function signIn(claims: Record<string, unknown> = { sub: '7' }) {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken(claims));
}

describe('the save button', () => {
  afterEach(() => act(() => closeLoginDialog()));

  it('flips at once and then shows the exact count the server answered', async () => {
    signIn();
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      ),
    );
    renderWithApp(<MediaCard card={media} />);
    fireEvent.click(screen.getByTestId('save-button'));
    expect(screen.getByTestId('save-button')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTitle('10 saves')).toBeInTheDocument();
    const body = { ...counters, saves: 25, isSave: true, user_save: 1 };
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    answer(new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    expect(await screen.findByTitle('25 saves')).toBeInTheDocument();
  });

  it('sends the tour guid and the wanted state through the generated client', async () => {
    signIn();
    const api = stubApi({ [SAVES]: () => ({ body: { ...counters, saves: 10, isSave: true, user_save: 1 } }) });
    renderWithApp(<MediaCard card={media} />);
    fireEvent.click(screen.getByTestId('save-button'));
    await waitFor(() => expect(api.callsTo(SAVES)).toHaveLength(1));
    expect(api.callsTo(SAVES)[0]?.body).toEqual({ id: 'a1b2', saves: 10, isSave: true });
  });

  it('goes back and shows the server message in a dialog when the save fails (spec §8)', async () => {
    signIn();
    stubApi({ [SAVES]: { status: 400, body: { message: 'You cannot save your own media', fields: {} } } });
    renderWithApp(<MediaCard card={media} />);
    fireEvent.click(screen.getByTestId('save-button'));
    expect(await screen.findByText('You cannot save your own media')).toBeInTheDocument();
    expect(screen.getByTestId('save-button')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTitle('9 saves')).toBeInTheDocument();
  });

  it('opens the login dialog for guests without calling the server', async () => {
    const api = stubApi({});
    renderWithApp(
      <>
        <MediaCard card={media} />
        <LoginProbe />
      </>,
    );
    fireEvent.click(screen.getByTestId('save-button'));
    expect(await screen.findByTestId('login-open')).toBeInTheDocument();
    expect(api.callsTo(SAVES)).toHaveLength(0);
  });
});

describe('the follow button', () => {
  const FOLLOW = 'POST /v2/creators/followers';
  const UNFOLLOW = 'DELETE /v2/creators/followers';

  it('follows and unfollows with the exact follower count', async () => {
    signIn();
    const api = stubApi({
      [FOLLOW]: () => ({ body: { creator_id: 8, userid: 7, followers: 1, isFollow: true } }),
      [UNFOLLOW]: () => ({ body: { creator_id: 8, userid: 7, followers: 0, isFollow: false } }),
    });
    renderWithApp(<CreatorCard card={creator} />);
    fireEvent.click(screen.getByTestId('follow-button'));
    await waitFor(() => expect(screen.getByTestId('follow-button')).toHaveAttribute('aria-pressed', 'true'));
    await waitFor(() => expect(screen.getByTestId('follow-button')).not.toHaveAttribute('data-loading'));
    expect(api.callsTo(FOLLOW)[0]?.body).toEqual({ userid: 7, creator_id: 8 });
    expect(screen.getByTestId('creator-card')).toHaveTextContent(/1\s*follower/);

    fireEvent.click(screen.getByTestId('follow-button'));
    await waitFor(() => expect(api.callsTo(UNFOLLOW)).toHaveLength(1));
    expect(api.callsTo(UNFOLLOW)[0]?.search.get('creator_id')).toBe('8');
    await waitFor(() => expect(screen.getByTestId('follow-button')).toHaveAttribute('aria-pressed', 'false'));
    expect(screen.getByTestId('creator-card')).toHaveTextContent(/0\s*followers/);
  });

  it('is hidden for admins and on the visitor’s own creator card', () => {
    signIn({ sub: '1', is_admin: true });
    const { unmount } = renderWithApp(<CreatorCard card={creator} />);
    expect(screen.queryByTestId('follow-button')).not.toBeInTheDocument();
    unmount();
    signIn({ sub: '4' });
    renderWithApp(<CreatorCard card={creator} />);
    expect(screen.queryByTestId('follow-button')).not.toBeInTheDocument();
  });
});
