/**
 * No barrel files (index.ts) outside generated code: imports name the module they use. The import
 * boundaries (shared → features → app, no feature importing another, no cycles) are ESLint's
 * (eslint.config.js, run by `npm run lint`).
 */
const barrels = Object.keys(import.meta.glob(['./**/index.{ts,tsx}', '!./shared/api/generated/**']));
const sources = Object.keys(import.meta.glob(['./**/*.{ts,tsx}', '!./shared/api/generated/**']));

describe('architecture', () => {
  it('finds the sources', () => {
    expect(sources.length).toBeGreaterThan(40);
  });

  it('has no barrel files', () => {
    expect(barrels).toEqual([]);
  });
});
