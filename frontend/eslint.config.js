import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import { createNodeResolver, flatConfigs as importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Imports flow shared → features → app (ARCHITECTURE.md), as bulletproof-react's rule set has it:
 * a feature imports no other feature and no app code, shared code imports neither features nor the app,
 * the app may import everything. One zone per feature folder, read from disk, so a new feature is
 * covered the day it is created.
 */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const layerZones = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature imports no other feature: move what both need into src/shared, or wire them together in src/app.',
  })),
  { target: './src/features', from: './src/app', message: 'Features do not import the app: the app imports features.' },
  {
    target: './src/shared',
    from: ['./src/features', './src/app'],
    message: 'Shared code imports neither features nor the app.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/shared/api/generated/**'] },
  {
    files: ['**/*.{ts,tsx,js}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended, importX.recommended, importX.typescript],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The rules of hooks. The plugin's React Compiler checks (refs read in render, setState in an
      // effect) are left out: the app is not compiled by it, and its "latest ref" patterns are sound.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // TypeScript already checks that named imports exist, with the real module types.
      'import-x/named': 'off',
      'import-x/namespace': 'off',
      'import-x/default': 'off',
      'import-x/no-named-as-default-member': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['*.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
