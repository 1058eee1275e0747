import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { ManageAdsDashboard } from './ManageAdsDashboard';
import { page, testAd } from './testAds';

const PUBLISHED = testAd({ id: 1, title: 'Drone footage' });
const WAITING = testAd({ id: 2, title: 'Kayak tours', approval_state: 'pending', link: 'https://kayaks.example.com/' });
const DRAFT = testAd({ id: 3, title: 'Old offer', status: 'draft', link: 'https://old.example.com/' });
const COUNTS = { total: 3, active: 2, draft: 1, pending: 1, rejected: 0, featured: 0 };

function signIn(claims: Record<string, unknown> = { sub: '7', creator_id: 4 }) {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken(claims));
}

const rows = () => screen.getAllByTestId('manage-ad-row');

describe('Manage Ads', () => {
  beforeEach(() => signIn());
  afterEach(() => vi.unstubAllGlobals());

  it('lists the ads with their states and the counts on the filters', async () => {
    stubApi({ 'GET /v2/ads/user/7': { body: page([PUBLISHED, WAITING, DRAFT]) }, 'GET /v2/ads/counts/7': { body: COUNTS } });
    renderWithApp(<ManageAdsDashboard />);
    expect(await screen.findByText('Kayak tours')).toBeInTheDocument();
    expect(screen.getByTestId('manage-ads-total')).toHaveTextContent('3 ads');
    const [first, second, third] = rows();
    expect(within(first!).getByText('Published')).toBeInTheDocument();
    expect(within(second!).getByText('Pending approval')).toBeInTheDocument();
    expect(within(third!).getByText('Draft')).toBeInTheDocument();
    expect(await screen.findByText('Drafts · 1')).toBeInTheDocument();
  });

  it('asks for one state when a filter is chosen', async () => {
    const api = stubApi({ 'GET /v2/ads/user/7': { body: page([DRAFT]) }, 'GET /v2/ads/counts/7': { body: COUNTS } });
    renderWithApp(<ManageAdsDashboard />);
    await screen.findByText('Old offer');
    fireEvent.click(await screen.findByText('Drafts · 1'));
    await waitFor(() => expect(api.callsTo('GET /v2/ads/user/7').some((call) => call.search.get('status') === 'draft')).toBe(true));
  });

  it('moves the selected active ads to drafts and refreshes the list', async () => {
    const api = stubApi({
      'GET /v2/ads/user/7': { body: page([PUBLISHED, WAITING, DRAFT]) },
      'GET /v2/ads/counts/7': { body: COUNTS },
      'PUT /v2/ads/1': { body: { message: 'The ad has been moved to drafts', pending: false } },
      'PUT /v2/ads/2': { body: { message: 'The ad has been moved to drafts', pending: true } },
    });
    renderWithApp(<ManageAdsDashboard />);
    await screen.findByText('Drone footage');
    fireEvent.click(screen.getByLabelText('Select all'));
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('bulk-drafts'));

    expect(await screen.findByText('2 ads were moved to drafts')).toBeInTheDocument();
    const puts = api.calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => [call.path, call.body])).toEqual([
      ['/v2/ads/1', { task: 'deactivate' }],
      ['/v2/ads/2', { task: 'deactivate' }],
    ]); // the draft is left alone
    await waitFor(() => expect(api.callsTo('GET /v2/ads/user/7')).toHaveLength(2));
    expect(screen.getByLabelText('Select all')).not.toBeChecked();
  });

  it('deletes an ad only after the confirmation', async () => {
    const api = stubApi({
      'GET /v2/ads/user/7': { body: page([PUBLISHED, WAITING]) },
      'GET /v2/ads/counts/7': { body: COUNTS },
      'DELETE /v2/ads/2': { body: { message: 'The ad has been deleted' } },
    });
    renderWithApp(<ManageAdsDashboard />);
    fireEvent.click(await screen.findByLabelText('Select “Kayak tours”'));
    fireEvent.click(screen.getByTestId('bulk-delete-ads'));
    expect(await screen.findByText('Delete this ad?')).toBeInTheDocument();
    expect(api.callsTo('DELETE /v2/ads/2')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('confirm-delete-ads'));
    expect(await screen.findByText('The ad was deleted')).toBeInTheDocument();
    expect(api.callsTo('DELETE /v2/ads/2')).toHaveLength(1);
    expect(api.callsTo('DELETE /v2/ads/1')).toHaveLength(0);
  });

  it('says a failed action with the server message', async () => {
    stubApi({
      'GET /v2/ads/user/7': { body: page([PUBLISHED]) },
      'GET /v2/ads/counts/7': { body: COUNTS },
      'PUT /v2/ads/1': { status: 403, body: { message: 'You can only manage your own ads' } },
    });
    renderWithApp(<ManageAdsDashboard />);
    fireEvent.click(await screen.findByLabelText('Select “Drone footage”'));
    fireEvent.click(screen.getByTestId('bulk-drafts'));
    expect(await screen.findByText('1 ad could not be changed')).toBeInTheDocument();
    expect(screen.getByText('You can only manage your own ads')).toBeInTheDocument();
  });

  it('invites a first ad when there is none, and opens the form', async () => {
    stubApi({ 'GET /v2/ads/user/7': { body: page([]) }, 'GET /v2/ads/counts/7': { body: { ...COUNTS, total: 0, active: 0, draft: 0, pending: 0 } } });
    renderWithApp(<ManageAdsDashboard />);
    const empty = await screen.findByTestId('manage-ads-empty');
    expect(empty).toHaveTextContent('No ads yet');
    fireEvent.click(within(empty).getByRole('button', { name: 'Add ad' }));
    expect(await screen.findByTestId('ad-form')).toBeInTheDocument();
  });

  it('says when the list cannot be loaded and tries again', async () => {
    const api = stubApi({ 'GET /v2/ads/user/7': { status: 500, body: { message: 'boom' } } });
    renderWithApp(<ManageAdsDashboard />);
    expect(await screen.findByText('Your ads could not be loaded. Check your connection and try again.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(api.callsTo('GET /v2/ads/user/7')).toHaveLength(2));
  });

  it('opens the form filled with the ad to edit', async () => {
    stubApi({ 'GET /v2/ads/user/7': { body: page([WAITING]) }, 'GET /v2/ads/counts/7': { body: COUNTS } });
    renderWithApp(<ManageAdsDashboard />);
    fireEvent.click(await screen.findByTestId('manage-ad-edit'));
    expect(await screen.findByDisplayValue('https://kayaks.example.com/')).toBeInTheDocument();
    expect(screen.getByTestId('ad-title')).toHaveValue('Kayak tours');
  });
});
