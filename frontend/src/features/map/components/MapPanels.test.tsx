import { fireEvent, screen, waitFor } from '@testing-library/react';

import type { GridPage, MapFeature, MediaCard } from '../../../shared/api/generated/types.gen';
import { INITIAL_FILTER_STATE } from '../../../shared/filters/filterState';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { TOURS_IN_VIEW_PAGE_SIZE } from '../api/toursInView';
import { MapStatus } from './MapStatus';
import { SpotList } from './SpotList';
import { ToursInView } from './ToursInView';
import { TourPopup } from './TourPopup';

const tour = (guid: string, title: string): MapFeature => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [2.35, 48.85] },
  properties: {
    id: 1,
    guid,
    type: 'vt',
    userid: 4,
    title,
    creator_name: 'Nordic Views',
    platform_username: 'nordic',
    preview_picture: '/uploads/a.jpg',
    views: 15_400,
    likes: 3,
    created_ago: '2 days ago',
  } as MapFeature['properties'],
});

describe('the map popup', () => {
  it('shows the picture, title, creator and the way to the tour', () => {
    renderWithApp(<TourPopup tour={tour('a1', 'Hermitage Museum').properties} />);
    const popup = screen.getByTestId('map-popup');
    expect(popup).toHaveTextContent('Hermitage Museum');
    expect(popup).toHaveTextContent('15K');
    expect(screen.getByRole('link', { name: 'Nordic Views' })).toHaveAttribute('href', '/nordic/grid');
    expect(screen.getByRole('link', { name: /Open tour/ })).toHaveAttribute('href', '/virtualtours/a1');
  });
});

describe('the list view', () => {
  it('lists the tours at a spot, each linking to its page', () => {
    const onClose = vi.fn();
    renderWithApp(<SpotList tours={[tour('a1', 'First'), tour('b2', 'Second')]} loading={false} onClose={onClose} />);
    expect(screen.getByText('2 tours here')).toBeInTheDocument();
    expect(screen.getAllByTestId('map-list-item').map((item) => item.getAttribute('href'))).toEqual(['/virtualtours/a1', '/virtualtours/b2']);
    fireEvent.click(screen.getByLabelText('Close the list'));
    expect(onClose).toHaveBeenCalled();
  });
});

const card = (guid: string): MediaCard & { type: 'vt' } => ({
  type: 'vt',
  guid,
  title: `Tour ${guid}`,
  preview_picture: null,
  views: 1_200,
  saves: 0,
  is_save: false,
  is_owned: false,
  created_ago: '2 days ago',
  media_type_id: 1,
  userid: 3,
});

describe('the list of tours in view', () => {
  it('asks the grid for the tours of the visible area and pages through them', async () => {
    const firstPage = Array.from({ length: TOURS_IN_VIEW_PAGE_SIZE }, (_, index) => card(`t${index}`));
    const api = stubApi({
      'GET /v2/user-recomendations/filtered-grid': ({ search }): { body: GridPage } => ({
        body: {
          data: search.get('offset') === '0' ? [...firstPage, { type: 'ad', id: 5, title: 'Drones', preview_picture: null, link: 'https://example.com', user_id: 2 }] : [card('last')],
          limit: TOURS_IN_VIEW_PAGE_SIZE,
          offset: Number(search.get('offset')),
          ranked_by: 'newest',
          total_items: TOURS_IN_VIEW_PAGE_SIZE + 1,
        },
      }),
    });
    const onClose = vi.fn();
    renderWithApp(<ToursInView id="list" filters={INITIAL_FILTER_STATE} bounds={[2, 48, 3, 49]} userId={null} onClose={onClose} />);

    expect(await screen.findByRole('heading', { name: '25 tours in view' })).toBeInTheDocument();
    const links = screen.getAllByTestId('map-view-list-item');
    expect(links).toHaveLength(TOURS_IN_VIEW_PAGE_SIZE); // the sponsored card is not a tour in view
    expect(links[0]).toHaveAttribute('href', '/virtualtours/t0');
    expect(links[0]).toHaveTextContent('1.2K views · 2 days ago');
    const [call] = api.callsTo('GET /v2/user-recomendations/filtered-grid');
    expect(Object.fromEntries(['leftX', 'leftY', 'rightX', 'rightY', 'mode', 'limit'].map((name) => [name, call?.search.get(name)]))).toEqual({
      leftX: '2',
      leftY: '48',
      rightX: '3',
      rightY: '49',
      mode: 'media',
      limit: String(TOURS_IN_VIEW_PAGE_SIZE),
    });

    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(screen.getAllByTestId('map-view-list-item')).toHaveLength(TOURS_IN_VIEW_PAGE_SIZE + 1));
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();

    fireEvent.keyDown(screen.getByRole('heading', { name: '25 tours in view' }), { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
});

describe('the map status', () => {
  it('exposes what the map drew through data attributes', () => {
    renderWithApp(<MapStatus rendered={{ zoom: 5.123, clusters: 12, points: 3, largestCluster: { x: 10, y: 20 }, centralPoint: null }} loading={false} />);
    const status = screen.getByTestId('map-status');
    expect(status).toHaveAttribute('data-zoom', '5.12');
    expect(status).toHaveAttribute('data-clusters', '12');
    expect(status).toHaveAttribute('data-points', '3');
    expect(status).toHaveAttribute('data-cluster-x', '10');
    expect(status).toHaveTextContent('Clusters on the map: 12, tours: 3');
  });
});
