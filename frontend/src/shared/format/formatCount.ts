/**
 * Counters as the spec shows them (§5): 950, 1.2K, 15K, 1.5M; 0 when empty.
 * Values are truncated, never rounded up, so 999,999 reads 999K rather than a misleading 1000K.
 */
export function formatCount(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value) || value <= 0) return '0';
  const whole = Math.floor(value);
  if (whole < 1_000) return String(whole);
  if (whole < 1_000_000) return withSuffix(whole / 1_000, 'K');
  return withSuffix(whole / 1_000_000, 'M');
}

function withSuffix(scaled: number, suffix: string): string {
  // One decimal below 10 (1.2K), none above (15K): short enough for a card.
  const digits = scaled < 10 ? Math.floor(scaled * 10) / 10 : Math.floor(scaled);
  return `${digits}${suffix}`;
}
