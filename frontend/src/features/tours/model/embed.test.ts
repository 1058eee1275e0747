import { playerFor, toJavaScriptPattern } from './embed';

// Real rules of app/classifications/dictionaries.py (Python syntax, as the server sends them).
const MATTERPORT = {
  link_pattern:
    '^https?://(?:my\\.matterport\\.com/show/?\\?(?:[^#\\s]*&)?m=|discover\\.matterport\\.com/space/)(?P<id>[A-Za-z0-9]{11})(?:[?#&][^\\s]*)?$',
  embed_template: 'https://my.matterport.com/show/?m={id}&play=1',
  embed_kind: 'iframe' as const,
};
const CUPIX = {
  link_pattern: '^https?://(?P<team>[a-z0-9-]{2,40})\\.cupix\\.works/sv/(?P<id>[a-z0-9]{6,12})/?(?:[?#&][^\\s]*)?$',
  embed_template: 'https://{team}.cupix.works/sv/{id}',
  embed_kind: 'iframe' as const,
};

describe('playerFor (the host embed rule)', () => {
  it('fills the template from the named groups of the link', () => {
    expect(playerFor('https://my.matterport.com/show/?m=SxQL3iGyoDo&qs=1', MATTERPORT)).toEqual({
      kind: 'iframe',
      src: 'https://my.matterport.com/show/?m=SxQL3iGyoDo&play=1',
    });
    expect(playerFor('https://acme.cupix.works/sv/q8gnw1', CUPIX)).toEqual({ kind: 'iframe', src: 'https://acme.cupix.works/sv/q8gnw1' });
  });

  it('knows {link} and video players', () => {
    const rule = { link_pattern: '^https://v\\.example/(?P<id>\\d+)$', embed_template: '{link}?embed=1', embed_kind: 'video' as const };
    expect(playerFor('https://v.example/42', rule)).toEqual({ kind: 'video', src: 'https://v.example/42?embed=1' });
  });

  it('embeds the link itself when there is no rule or the link does not match it', () => {
    expect(playerFor('https://tours.example.org/t/1', null)).toEqual({ kind: 'iframe', src: 'https://tours.example.org/t/1' });
    expect(playerFor('https://other.example/x', MATTERPORT)).toEqual({ kind: 'iframe', src: 'https://other.example/x' });
  });

  it('never embeds anything but a web address', () => {
    expect(playerFor('javascript:alert(1)', null)).toBeNull();
    const hostile = { link_pattern: '^(?P<all>.*)$', embed_template: '{all}', embed_kind: 'iframe' as const };
    expect(playerFor('javascript:alert(1)', hostile)).toBeNull();
  });

  it('translates Python named groups and back-references, and gives up on what JavaScript cannot read', () => {
    expect(toJavaScriptPattern('^(?P<a>x)(?P=a)$')?.test('xx')).toBe(true);
    expect(toJavaScriptPattern('(?P<a>')).toBeNull();
  });
});
