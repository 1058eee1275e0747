import { formatCount } from './formatCount';

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1_000, '1K'],
    [1_234, '1.2K'],
    [1_299, '1.2K'],
    [9_999, '9.9K'],
    [15_000, '15K'],
    [15_900, '15K'],
    [999_999, '999K'],
    [1_000_000, '1M'],
    [1_500_000, '1.5M'],
    [25_000_000, '25M'],
    [999_999_999, '999M'],
  ])('formats %d as %s', (value, expected) => {
    expect(formatCount(value)).toBe(expected);
  });

  it('shows 0 for empty or invalid values', () => {
    expect(formatCount(undefined)).toBe('0');
    expect(formatCount(null)).toBe('0');
    expect(formatCount(Number.NaN)).toBe('0');
    expect(formatCount(-5)).toBe('0');
  });
});
