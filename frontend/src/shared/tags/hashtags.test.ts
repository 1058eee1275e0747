import { descriptionParts, hashtagKey, hashtagsIn } from './hashtags';

// The same cases as the server's tests/unit/test_hashtags.py: both sides read a description alike.
describe('hashtags of a description', () => {
  it.each([
    ['#beach at #GoldenHour', ['beach', 'GoldenHour']],
    ['#castle.', ['castle']],
    ['(#castle) «#замок», “#ёлка”', ['castle', 'замок', 'ёлка']],
    ['#multi-scene-tour- and #golden_hour', ['multi-scene-tour', 'golden_hour']],
    ['#Beach #beach #BEACH', ['Beach']],
    ['line one\n#second-line', ['second-line']],
    ['C# and abc#def and &#39;', []],
    ['#1 #2024 but #4K', ['4K']],
    ['https://example.com/page#section', []],
    ['example.com/#/route www.site.org/a#b', []],
    ['see https://kuula.co/share/abc #kuula', ['kuula']],
    ['key:#value ##double', []],
    ['', []],
  ])('%j → %j', (text, expected) => {
    expect(hashtagsIn(text)).toEqual(expected);
  });

  it.each([
    ["Bird's Eye View", 'birds_eye_view'],
    ['Golden Hour', 'GOLDENHOUR'],
    ['Multi-Scene Tour', 'multiscenetour'],
    ['Ёлка', 'елка'],
    ['Замок', 'ЗАМОК'],
    ['4K', '4k'],
  ])('%s and %s compare alike', (left, right) => {
    expect(hashtagKey(left)).toBe(hashtagKey(right));
  });

  it('leaves a word longer than any tag name alone', () => {
    expect(hashtagsIn(`#${'a'.repeat(101)}`)).toEqual([]);
  });

  it('cuts the text into runs that join back to it, hashtags in place', () => {
    const text = 'Dawn at the #castle (see https://x.org/a#b), then #Золотой_час.';
    const parts = descriptionParts(text);
    expect(parts.map((part) => part.text).join('')).toBe(text);
    expect(parts.filter((part) => part.kind === 'hashtag').map((part) => part.text)).toEqual(['#castle', '#Золотой_час']);
  });
});
