import { fireEvent, screen, waitFor } from '@testing-library/react';

import type { PopularTagsPage as PopularTagsAnswer } from '../../../shared/api/generated/types.gen';
import { renderWithApp, stubFetch } from '../../../testing/render';
import { nextTagsOffset } from '../api/popularTags';
import { PopularTagsPage } from './PopularTagsPage';

const URL_PATH = '/v2/user-recomendations/popular-tags';

function answer(offset: number, names: string[], total: number): PopularTagsAnswer {
  return {
    total_items: total,
    limit: 48,
    offset,
    data: names.map((name, position) => ({ id: offset + position + 1, name, vt_count: 1200 - 100 * (offset + position) })),
  };
}

describe('the Popular tags page', () => {
  it('lists the most used tags with their counts, each opening its #tag search', async () => {
    stubFetch({ [URL_PATH]: answer(0, ['Castle', 'Golden Hour', 'Beach'], 3) });
    renderWithApp(<PopularTagsPage />, { path: '/tags' });
    const rows = await screen.findAllByTestId('popular-tag');
    expect(rows.map((row) => row.textContent)).toEqual([
      'No. 1#Castle1,200 tours',
      'No. 2#Golden Hour1,100 tours',
      'No. 3#Beach1,000 tours',
    ]);
    expect(rows[1]).toHaveAttribute('href', '/feed?tag=2');
    expect(rows[1]).toHaveAccessibleName('#Golden Hour, 1,100 tours');
    expect(screen.getByTestId('popular-tags-shown')).toHaveTextContent('3 of 3 tags');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('loads more on request until the total', async () => {
    const fetchMock = vi.fn(async (input: Request) => {
      const offset = Number(new URL(input.url).searchParams.get('offset'));
      const body = offset === 0 ? answer(0, ['Castle', 'Beach'], 3) : answer(2, ['Ruins'], 3);
      return new Response(JSON.stringify({ ...body, limit: 2 }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<PopularTagsPage />, { path: '/tags' });
    fireEvent.click(await screen.findByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(screen.getAllByTestId('popular-tag')).toHaveLength(3));
    expect(screen.getByTestId('popular-tags-shown')).toHaveTextContent('3 of 3 tags');
  });

  it('says when no tour carries a tag, and when the tags cannot be loaded', async () => {
    stubFetch({ [URL_PATH]: answer(0, [], 0) });
    const { unmount } = renderWithApp(<PopularTagsPage />, { path: '/tags' });
    expect(await screen.findByTestId('popular-tags-empty')).toHaveTextContent('No tour carries a tag yet.');
    unmount();
    stubFetch({});
    renderWithApp(<PopularTagsPage />, { path: '/tags' });
    expect(await screen.findByRole('button', { name: /try again|retry/i })).toBeInTheDocument();
  });

  it('pages until the total', () => {
    expect(nextTagsOffset(answer(0, ['a', 'b'], 100))).toBe(48);
    expect(nextTagsOffset({ ...answer(0, ['a', 'b'], 2), limit: 2 })).toBeUndefined();
    expect(nextTagsOffset(answer(96, [], 200))).toBeUndefined();
  });
});
