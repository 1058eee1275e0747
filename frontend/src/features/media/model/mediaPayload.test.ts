import type { TourOut } from '../../../shared/api/generated/types.gen';
import { tourToFormValues } from './mediaPayload';

describe('editing a tour whose description has hashtags (issue 18 part 6)', () => {
  it('holds only the tags picked by hand: those from hashtags follow the description', () => {
    const tour = {
      guid: 'g1',
      title: 'Castle at dawn',
      description: 'Dawn at the #castle',
      link: 'https://kuula.co/share/Ab123',
      media_type_id: 1,
      category_id: 2,
      subcategory_id: null,
      camera_id: null,
      address_str: null,
      address_id: null,
      coordinates: null,
      vt_website: null,
      preview_picture: null,
      is_ai_generated: false,
      third_party_creator: null,
      creator_website: null,
      vendor: { id: 9, name: 'Kuula' },
      tags: [
        { id: 4, name: 'Architecture', hashtag: null },
        { id: 8, name: 'Castle', hashtag: 'castle' },
      ],
    } as unknown as TourOut;
    expect(tourToFormValues(tour).tags).toEqual([{ id: 4, name: 'Architecture', source: 'manual' }]);
  });
});
