import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { LoginDialog } from '../../features/auth/components/LoginDialog';
import { closeLoginDialog } from '../../shared/auth/loginDialog';
import { resetFilterState } from '../../shared/filters/filterState';
import { STORAGE_KEYS } from '../../shared/storage/localStore';
import { renderWithApp, stubFetch } from '../../testing/render';
import { AppLayout } from './AppLayout';

const CATEGORIES = {
  data: [
    { id: 1, name: 'Museums', image_search: 'building-bank', source_image_search: 'local', subcategories: [] },
    { id: 2, name: 'Hotels', image_search: null, source_image_search: null, subcategories: [{ id: 7, name: 'Resorts', category_id: 2 }] },
  ],
};

describe('the top bar and category strip', () => {
  afterEach(() => {
    resetFilterState();
    closeLoginDialog();
  });

  it('renders the bar with the categories from the server', async () => {
    stubFetch({ '/v2/categories/': CATEGORIES, '/v2/config/app-version': { gui_version: '2.3.7' } });
    renderWithApp(<AppLayout withCategories />);

    const bar = screen.getByTestId('top-bar');
    expect(within(bar).getByLabelText('TourAtlas')).toBeInTheDocument();
    expect(within(bar).getByTestId('language-picker')).toBeInTheDocument();
    expect(within(bar).getByTestId('view-toggle')).toBeInTheDocument();
    expect(within(bar).getByTestId('filters-button')).toBeInTheDocument();
    expect(within(bar).getByTestId('profile-menu')).toBeInTheDocument();
    expect(within(bar).getByRole('textbox', { name: /search/i })).toBeInTheDocument();

    expect(await screen.findByRole('button', { name: 'Museums' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hotels' })).toBeInTheDocument();
    // A 'local' category icon is a Tabler icon drawn inline; a category without one shows none.
    expect(screen.getByRole('button', { name: 'Museums' }).querySelector('svg')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Hotels' }).querySelector('svg')).toBeNull();
    expect(screen.getByTestId('feed-selector')).toHaveTextContent('All tours');
    expect(screen.getByTestId('geolocation-button')).toBeInTheDocument();
    // The server still announces this build's version: no reload offered.
    expect(screen.queryByTestId('new-version-button')).not.toBeInTheDocument();
  });

  it('marks a chosen category', async () => {
    stubFetch({ '/v2/categories/': CATEGORIES, '/v2/config/app-version': { gui_version: '2.3.7' } });
    renderWithApp(<AppLayout withCategories />);
    const museums = await screen.findByRole('button', { name: 'Museums' });
    fireEvent.click(museums);
    expect(museums).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(museums);
    expect(museums).toHaveAttribute('aria-pressed', 'false');
  });

  it('offers a reload when the server announces another version', async () => {
    stubFetch({ '/v2/categories/': CATEGORIES, '/v2/config/app-version': { gui_version: '2.4.0' } });
    renderWithApp(<AppLayout withCategories />);
    expect(await screen.findByTestId('new-version-button')).toHaveTextContent('New version available');
  });

  it('shows the texts in the stored language', async () => {
    localStorage.setItem(STORAGE_KEYS.locale, 'ru');
    stubFetch({ '/v2/categories/': CATEGORIES, '/v2/config/app-version': { gui_version: '2.3.7' } });
    renderWithApp(<AppLayout withCategories />);
    // The Russian catalogue is fetched on demand (the app waits for it before its first render).
    await waitFor(() => expect(screen.getByTestId('feed-selector')).toHaveTextContent('Все туры'));
    expect(await screen.findByRole('button', { name: 'Museums' })).toBeInTheDocument();
  });

  it('opens the login dialog when a signed-out visitor adds media', async () => {
    stubFetch({ '/v2/categories/': CATEGORIES, '/v2/config/app-version': { gui_version: '2.3.7' } });
    renderWithApp(
      <>
        <AppLayout withCategories />
        <LoginDialog />
      </>,
    );
    fireEvent.click(screen.getByTestId('add-media-button'));
    expect(await screen.findByText('Sign in to continue')).toBeInTheDocument();
  });
});
