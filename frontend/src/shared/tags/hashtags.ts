/**
 * Hashtags of a tour description, by the server's rule (app/classifications/hashtags.py; the tests of
 * both sides share their cases): `#` at the start or after a space or an opening mark, then letters,
 * digits and underscores of any script, optionally joined by single hyphens, with at least one
 * letter; never inside a word, an HTML entity or a web address. A hashtag and a tag's name compare by
 * their key: NFKC, lower case, `ё` read as `е`, letters and digits only.
 */

const ADDRESS = /(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S+|\b[\w.-]+\.[a-z]{2,}\/\S*/giu;
const HASHTAG = /(?:^|(?<=[\s([{"'«“„‘,;!?¡¿…]))#([\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*)/gu;
const LETTER = /\p{L}/u;
const NOT_ALPHANUMERIC = /[^\p{L}\p{N}]/gu;
/** Longer than any tag name may be: such a word names no tag. */
const MAX_HASHTAG_LENGTH = 100;

export function hashtagKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replaceAll('ё', 'е').replace(NOT_ALPHANUMERIC, '');
}

export type DescriptionPart = { kind: 'text'; text: string } | { kind: 'hashtag'; text: string; word: string; key: string };

/** The text cut into plain runs and hashtags (`text` keeps the '#'; `word` is without it). */
export function descriptionParts(text: string): DescriptionPart[] {
  // Web addresses are blanked out (same length) so that their '#' fragments are never hashtags.
  const blanked = text.replace(ADDRESS, (address) => ' '.repeat(address.length));
  const parts: DescriptionPart[] = [];
  let last = 0;
  for (const match of blanked.matchAll(HASHTAG)) {
    const word = match[1] ?? '';
    const start = match.index + match[0].indexOf('#');
    if (word.length > MAX_HASHTAG_LENGTH || !LETTER.test(word)) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    const end = start + 1 + word.length;
    parts.push({ kind: 'hashtag', text: text.slice(start, end), word: text.slice(start + 1, end), key: hashtagKey(word) });
    last = end;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** The hashtags of a text in order of first appearance, one per key (as the server reads them). */
export function hashtagsIn(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const part of descriptionParts(text)) {
    if (part.kind === 'hashtag' && part.key && !seen.has(part.key)) {
      seen.add(part.key);
      words.push(part.word);
    }
  }
  return words;
}
