import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useNavigate } from 'react-router';

import type { AdCard as AdCardData } from '../../../shared/api/generated/types.gen';
import { renderWithApp } from '../../../testing/render';
import { AdCard } from './AdCard';
import { forgetAdTracking } from './AdCardTracking';

const AD: AdCardData = { type: 'ad', id: 42, title: 'Drone footage', preview_picture: null, link: 'https://drones.example.com/', user_id: 2 };

interface SentRequest {
  method: string;
  path: string;
  pageView: string | null;
  body: unknown;
  keepalive: boolean;
}

/** Records the calls the card makes; every one is answered with an empty 200. */
function recordRequests(): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const text = await request.text();
      sent.push({
        method: request.method,
        path: url.pathname,
        pageView: url.searchParams.get('page_view'),
        body: text ? (JSON.parse(text) as unknown) : undefined,
        keepalive: request.keepalive,
      });
      return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return sent;
}

const shows = (sent: SentRequest[]) => sent.filter((call) => call.method === 'GET' && call.path === '/v2/ads/show/42');

/** The card with buttons that move through the history as a visitor would. */
function Harness() {
  const navigate = useNavigate();
  return (
    <>
      <button type="button" onClick={() => void navigate('/feed?visit=again')}>
        new visit
      </button>
      <button type="button" onClick={() => void navigate(-1)}>
        back
      </button>
      <AdCard card={AD} />
    </>
  );
}

describe('the Sponsored card', () => {
  beforeEach(() => forgetAdTracking());
  afterEach(() => vi.unstubAllGlobals());

  it('counts one impression per page view, whatever re-renders or mounts it again', async () => {
    const sent = recordRequests();
    const view = renderWithApp(<Harness />);
    await waitFor(() => expect(shows(sent)).toHaveLength(1));
    expect(shows(sent)[0]?.pageView).toMatch(/^[A-Za-z0-9_.:-]{1,64}$/);

    view.rerender(<></>);
    renderWithApp(<Harness />);
    // A card scrolled out and back in, or drawn again, asks nothing more in the same page view.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shows(sent)).toHaveLength(1);
  });

  it('starts a new page view on a new visit of the grid, and keeps the old one on the way back', async () => {
    const sent = recordRequests();
    renderWithApp(<Harness />);
    await waitFor(() => expect(shows(sent)).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: 'new visit' }));
    await waitFor(() => expect(shows(sent)).toHaveLength(2));
    expect(shows(sent)[1]?.pageView).not.toBe(shows(sent)[0]?.pageView);

    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shows(sent)).toHaveLength(2);
  });

  it('waits until the card is on screen before counting it', async () => {
    const sent = recordRequests();
    type Report = (entries: Array<{ isIntersecting: boolean }>) => void;
    const reports: Report[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        // Only the card's own observer (the preview image has one too).
        constructor(callback: Report, options?: IntersectionObserverInit) {
          if (options?.threshold === 0.5) reports.push(callback);
        }
        observe(): void {}
        disconnect(): void {}
      },
    );
    renderWithApp(<Harness />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shows(sent)).toHaveLength(0);

    expect(reports).toHaveLength(1);
    act(() => reports.forEach((report) => report([{ isIntersecting: true }])));
    await waitFor(() => expect(shows(sent)).toHaveLength(1));
  });

  it('reports a click with the page view, kept alive while the new tab opens', async () => {
    const sent = recordRequests();
    renderWithApp(<Harness />);
    await waitFor(() => expect(shows(sent)).toHaveLength(1));
    const link = screen.getByTestId('ad-card');
    link.addEventListener('click', (event) => event.preventDefault()); // jsdom does not open tabs
    fireEvent.click(link);

    await waitFor(() => expect(sent.some((call) => call.path === '/v2/ads/click/42')).toBe(true));
    const click = sent.find((call) => call.path === '/v2/ads/click/42');
    expect(click).toMatchObject({ method: 'POST', body: { page_view: shows(sent)[0]?.pageView }, keepalive: true });
  });
});
