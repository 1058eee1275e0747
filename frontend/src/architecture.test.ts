/**
 * Imports flow shared → features → app (ARCHITECTURE.md): shared imports neither features nor app,
 * a feature imports no app code and no other feature. No barrel files (index.ts) outside generated code.
 */
const sources = import.meta.glob<string>(['./**/*.{ts,tsx}', '!./**/*.test.{ts,tsx}', '!./shared/api/generated/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** `./features/feed/pages/FeedPage.tsx` + `../api/x` → `features/feed/api/x`. */
function resolveImport(file: string, specifier: string): string {
  const parts = file.replace(/^\.\//, '').split('/').slice(0, -1);
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

function relativeImports(file: string, text: string): string[] {
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => resolveImport(file, match[1] ?? ''));
}

function layerOf(path: string): { layer: string; feature?: string } {
  const [layer = '', feature] = path.replace(/^\.\//, '').split('/');
  return layer === 'features' ? { layer, feature } : { layer };
}

describe('architecture', () => {
  it('reads the sources', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(40);
  });

  it('keeps imports flowing shared → features → app', () => {
    const violations: string[] = [];
    for (const [file, text] of Object.entries(sources)) {
      const from = layerOf(file);
      for (const target of relativeImports(file, text).map(layerOf)) {
        const sharedReachesUp = from.layer === 'shared' && (target.layer === 'features' || target.layer === 'app');
        const featureReachesApp = from.layer === 'features' && target.layer === 'app';
        const featureReachesSibling = from.layer === 'features' && target.layer === 'features' && target.feature !== from.feature;
        if (sharedReachesUp || featureReachesApp || featureReachesSibling) {
          violations.push(`${file} → ${target.layer}/${target.feature ?? ''}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('has no barrel files', () => {
    expect(Object.keys(sources).filter((file) => /\/index\.tsx?$/.test(file))).toEqual([]);
  });
});
