import { fireEvent, screen } from '@testing-library/react';

import type { MapFeature } from '../../../shared/api/generated/types.gen';
import { renderWithApp } from '../../../testing/render';
import { MapStatus } from './MapStatus';
import { SpotList } from './SpotList';
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
