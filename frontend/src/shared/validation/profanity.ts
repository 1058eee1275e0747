// A short list is enough on the client: the server holds the full profanity list and has the last word.
const PROFANITY = ['fuck', 'shit', 'bitch', 'cunt', 'asshole', 'dick'];

export function hasProfanity(value: string): boolean {
  const lowered = value.toLowerCase();
  return PROFANITY.some((word) => lowered.includes(word));
}
