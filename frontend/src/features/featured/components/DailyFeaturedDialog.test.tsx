import { fireEvent, screen, waitFor } from '@testing-library/react';

import { renderWithApp, stubFetch } from '../../../testing/render';
import { DailyFeaturedDialog } from './DailyFeaturedDialog';

describe('the daily featured-tour dialog (spec §2: the user cannot close it)', () => {
  beforeAll(() => {
    // Mantine's autosizing textarea listens for web fonts, which jsdom does not have.
    if (!('fonts' in document)) {
      Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
    }
  });
  afterEach(() => vi.unstubAllGlobals());

  it('has no close button and ignores Escape; "Not today" answers it', async () => {
    stubFetch({});
    const onAnswered = vi.fn();
    renderWithApp(<DailyFeaturedDialog userId={7} onAnswered={onAnswered} />);
    const dialog = await screen.findByRole('dialog', { name: 'Tour of the day' });
    expect(screen.queryByRole('button', { name: /close/i })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'Tour of the day' })).toBeInTheDocument();
    expect(onAnswered).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Not today' }));
    expect(onAnswered).toHaveBeenCalledTimes(1);
  });

  it('lists the creator’s published tours and asks for one before sending', async () => {
    const fetchMock = stubFetch({
      '/v2/virtualtours/user/7': { data: [{ guid: 'g1', title: 'Harbour loft' }], total_items: 1, limit: 200, offset: 0 },
    });
    renderWithApp(<DailyFeaturedDialog userId={7} onAnswered={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Submit a tour' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Choose a tour')).toBeInTheDocument();
    await waitFor(() => {
      const asked = fetchMock.mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input)));
      expect(asked.some((url) => url.pathname === '/v2/virtualtours/user/7' && url.searchParams.get('status') === 'active')).toBe(true);
    });
    expect(fetchMock.mock.calls.some(([input]) => String(input instanceof Request ? input.url : input).includes('send-tour-today'))).toBe(false);
  });
});
