import { chosenView, isCreatorId, logoBackground, logoScale, profileLinks, safeHttpUrl } from './creatorProfile';

const base = { website: null, instagram: null, twitter: null, youtube: null, facebook: null, linkedin: null, img_settings: null };

describe('the creator profile model', () => {
  it('takes the view from the link, else the creator’s default (grid when unset)', () => {
    expect(chosenView('?view=list', 'map')).toBe('list');
    expect(chosenView('?countries=FR', 'map')).toBe('map');
    expect(chosenView('', null)).toBe('grid');
    expect(chosenView('?view=carousel', 'grid')).toBe('grid');
  });

  it('reads the logo background and scale from img_settings (black and 100 % by default)', () => {
    expect(logoBackground(base)).toBe('black');
    expect(logoBackground({ img_settings: { bgColor: 'white' } })).toBe('white');
    expect(logoBackground({ img_settings: { bgColor: 'red' } })).toBe('black');
    expect(logoScale(base)).toBe(1);
    expect(logoScale({ img_settings: { logoScale: 15 } })).toBe(1.5);
    expect(logoScale({ img_settings: { logoScale: 90 } })).toBe(3);
  });

  it('offers only http(s) links, in a fixed order', () => {
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('studio.example')).toBe('https://studio.example/');
    const links = profileLinks({ ...base, youtube: 'https://youtube.com/@nv', website: 'https://www.nordic.example/', twitter: 'data:text/html,x' });
    expect(links.map((link) => [link.network, link.label])).toEqual([
      ['website', 'nordic.example'],
      ['youtube', 'youtube.com/@nv'],
    ]);
  });

  it('tells an id from a name in the address', () => {
    expect(isCreatorId('42')).toBe(true);
    expect(isCreatorId('0')).toBe(false);
    expect(isCreatorId('nordic')).toBe(false);
    expect(isCreatorId('4e2')).toBe(false);
  });
});
