import { fireEvent, screen, within } from '@testing-library/react';

import { getFilterState, resetFilterState } from '../../../shared/filters/filterState';
import { renderWithApp, stubFetch } from '../../../testing/render';
import { FiltersDropdown } from './FiltersDropdown';

const DICTIONARIES = {
  '/v2/locations/address-countries': { data: [] },
  '/v2/vendors/': { data: [] },
  '/v2/categories/media-types': { data: [{ id: 4, name: '360 Video', is_360: true }] },
  '/v2/categories/tags': { data: [] },
};

function daysAgo(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() - days);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Issue 18 part 5 in the dropdown: the "360° only" switch and the added-date range. */
describe('the filters dropdown: dates and 360°', () => {
  afterEach(() => resetFilterState());

  it('switches 360° only on and off, and counts it', async () => {
    stubFetch(DICTIONARIES);
    renderWithApp(<FiltersDropdown />);
    fireEvent.click(screen.getByTestId('filters-button'));
    const panel = await screen.findByTestId('filters-panel');
    // The form is fetched when the panel first opens.
    await within(panel).findAllByText('Sort by', {}, { timeout: 20_000 });
    const toggle = within(panel).getByTestId('filters-only-360');
    expect(toggle.closest('label')).toHaveTextContent('360° only');
    fireEvent.click(toggle);
    expect(getFilterState().only_360).toBe(true);
    expect(screen.getByTestId('filters-count')).toHaveTextContent('1');
    fireEvent.click(toggle);
    expect(getFilterState().only_360).toBe(false);
  });

  it('narrows to a quick range and clears it with the rest', async () => {
    stubFetch(DICTIONARIES);
    renderWithApp(<FiltersDropdown />);
    fireEvent.click(screen.getByTestId('filters-button'));
    const panel = await screen.findByTestId('filters-panel');
    fireEvent.click(await within(panel).findByText('Past month'));
    expect(getFilterState()).toMatchObject({ added_from: daysAgo(30), added_to: '' });
    expect(within(panel).getByLabelText('Past month')).toBeChecked();
    fireEvent.click(within(panel).getByText('Past week'));
    expect(getFilterState().added_from).toBe(daysAgo(7));
    fireEvent.click(within(panel).getByText('Clear all'));
    expect(getFilterState()).toMatchObject({ added_from: '', added_to: '', only_360: false });
  });
});
