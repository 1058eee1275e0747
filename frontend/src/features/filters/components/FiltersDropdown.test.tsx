import { fireEvent, screen, within } from '@testing-library/react';

import { getFilterState, resetFilterState, updateFilterState } from '../../../shared/filters/filterState';
import { renderWithApp, stubFetch } from '../../../testing/render';
import { FiltersDropdown } from './FiltersDropdown';

const DICTIONARIES = {
  '/v2/locations/address-countries': { data: [{ code: 'FR', name: 'France', center: [2, 46], bbox: null, vt_count: 12 }] },
  '/v2/vendors/': { data: [{ vendor_id: 1, vendor_name: 'Matterport', link_header: null, group_name: null, preview_picture_required: false, is_white_label: false, website: null }] },
  '/v2/categories/media-types': { data: [{ id: 4, name: '360 Video' }] },
  '/v2/categories/tags': { data: [{ id: 133, name: 'Aquarium', description: '', is_active: true, topic_type: 'category', topic_id: 3 }] },
};

describe('the filters dropdown', () => {
  afterEach(() => resetFilterState());

  it('counts the active filters in its badge, a #, @ or quoted search among them', () => {
    stubFetch(DICTIONARIES);
    updateFilterState({ countries: ['FR'], searchPattern: '#castle', categories: [1] });
    renderWithApp(<FiltersDropdown />);
    expect(screen.getByTestId('filters-count')).toHaveTextContent('2');
  });

  it('shows no badge without filters, nor for a plain word search', () => {
    stubFetch(DICTIONARIES);
    updateFilterState({ searchPattern: 'castle' });
    renderWithApp(<FiltersDropdown />);
    expect(screen.getByTestId('filters-count')).not.toHaveTextContent(/\d/);
  });

  it('offers every field of the spec and changes the shared filter state', async () => {
    stubFetch(DICTIONARIES);
    renderWithApp(<FiltersDropdown />);
    fireEvent.click(screen.getByTestId('filters-button'));
    const panel = await screen.findByTestId('filters-panel');
    // The form is fetched when the panel first opens.
    await within(panel).findAllByText('Sort by');
    for (const label of ['Search', 'Sort by', 'Show', 'Countries', 'Hosts', 'Media types', 'Tags']) {
      expect(within(panel).getAllByText(label).length).toBeGreaterThan(0);
    }
    fireEvent.click(within(panel).getByText('Creators'));
    expect(getFilterState().mode).toBe('creators');
    expect(screen.getByTestId('filters-count')).toHaveTextContent('1');
    fireEvent.click(within(panel).getByText('Clear all'));
    expect(getFilterState().mode).toBe('both');
  });

  it('names the tags it shows', async () => {
    stubFetch(DICTIONARIES);
    updateFilterState({ tags: [133] });
    renderWithApp(<FiltersDropdown />);
    fireEvent.click(screen.getByTestId('filters-button'));
    // The chosen tag shows as a named pill, not as '#133'.
    expect((await screen.findAllByText('Aquarium')).length).toBeGreaterThan(0);
    expect(screen.queryByText('#133')).not.toBeInTheDocument();
  });
});
