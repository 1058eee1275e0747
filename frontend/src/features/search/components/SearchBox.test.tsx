import { act, fireEvent, screen, waitFor } from '@testing-library/react';

import { getFilterState, resetFilterState } from '../../../shared/filters/filterState';
import { clearSearchHistory, readSearchHistory, rememberSearch } from '../../../shared/search/searchHistory';
import { renderWithApp, stubFetch } from '../../../testing/render';
import { SEARCH_DEBOUNCE_MS, SearchBox } from './SearchBox';

const SEARCH = '/v2/user-recomendations/search';

function searchCalls(fetchMock: ReturnType<typeof stubFetch>): string[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL((input as Request).url))
    .filter((url) => url.pathname === SEARCH)
    .map((url) => url.searchParams.get('searchData') ?? '');
}

describe('the search box', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => {
    vi.useRealTimers();
    resetFilterState();
    clearSearchHistory();
  });

  it('asks for suggestions only once typing has paused for 1200 ms, showing a spinner meanwhile', async () => {
    const fetchMock = stubFetch({
      [SEARCH]: { data: [{ type: 'tag', id: '133', text: 'Aquarium', vt_count: 42 }], message: null },
    });
    renderWithApp(<SearchBox />);
    const input = screen.getByTestId('search-input');
    fireEvent.change(input, { target: { value: '#aq' } });
    expect(screen.getByTestId('search-spinner')).toBeInTheDocument();
    expect(screen.getByTestId('search-prefix')).toHaveTextContent('Tags');
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 200));
    expect(searchCalls(fetchMock)).toEqual([]);

    act(() => vi.advanceTimersByTime(200));
    expect(await screen.findByText('Aquarium')).toBeInTheDocument();
    expect(searchCalls(fetchMock)).toEqual(['#aq']);
  });

  it('turns a chosen tag into a tag filter', async () => {
    stubFetch({ [SEARCH]: { data: [{ type: 'tag', id: '133', text: 'Aquarium', vt_count: 42 }], message: null } });
    renderWithApp(<SearchBox />);
    const input = screen.getByTestId('search-input');
    fireEvent.change(input, { target: { value: '#aq' } });
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    fireEvent.click(await screen.findByText('Aquarium'));
    expect(getFilterState().tags).toEqual([133]);
    expect(input).toHaveValue('');
  });

  it('searches at once on Enter and remembers the search in the history cookie', () => {
    const fetchMock = stubFetch({ [SEARCH]: { data: [], message: 'No data found' } });
    renderWithApp(<SearchBox />);
    const input = screen.getByTestId('search-input');
    fireEvent.change(input, { target: { value: 'castle ' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    expect(getFilterState().searchPattern).toBe('castle');
    expect(readSearchHistory()).toEqual(['castle']);
    expect(searchCalls(fetchMock)).toEqual([]);
  });

  it('says so when nothing matches', async () => {
    stubFetch({ [SEARCH]: { data: [], message: 'No data found' } });
    renderWithApp(<SearchBox />);
    fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'zzzz' } });
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    expect(await screen.findByTestId('search-empty')).toHaveTextContent('No data found');
  });

  it('offers the recent searches in an empty box', async () => {
    rememberSearch('paris');
    rememberSearch('#museum');
    stubFetch({});
    renderWithApp(<SearchBox />);
    fireEvent.focus(screen.getByTestId('search-input'));
    await waitFor(() => expect(screen.getAllByTestId('search-history-entry').map((entry) => entry.textContent)).toEqual(['#museum', 'paris']));
    fireEvent.click(screen.getByText('paris'));
    expect(getFilterState().searchPattern).toBe('paris');
  });
});
