import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

import packageJson from './package.json' with { type: 'json' };

// In development the API runs on its own port; the built app is served by FastAPI on the same origin.
const API_ORIGIN = 'http://127.0.0.1:8000';
const proxiedPaths = ['/v2', '/socket.io', '/uploads', '/health'];

// The production build renders with Preact (preact/compat), ~55 kB of gzipped JavaScript less than
// React DOM on every first visit (frontend/README.md, "Bundle budget"). The dev server and Vitest keep
// React: its Fast Refresh and Testing Library's act() need the real one. The end-to-end tests run
// against the build, so they cover what ships.
const reactOnPreact = [
  { find: /^react$/, replacement: decodeURIComponent(new URL('./build/react-on-preact.js', import.meta.url).pathname) },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
];

export default defineConfig(({ command, mode }) => ({
  resolve: { alias: command === 'build' && mode !== 'test' ? reactOnPreact : [] },
  plugins: [
    react(),
    // A .br and a .gz beside every text asset: the server sends the best one the browser accepts
    // (app/core/static.py) without compressing anything per request. Below 1 KB it is not worth it.
    compression({
      include: /\.(js|mjs|css|svg|json|txt|wasm)$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      // The plugin's defaults are the strongest levels (brotli 11, gzip 9): paid once per build.
      algorithms: ['brotliCompress', 'gzip'],
      logLevel: 'silent',
    }),
  ],
  define: {
    // The built app compares this with GET /v2/config/app-version to offer a reload (spec §4 version check).
    __APP_VERSION__: JSON.stringify(packageJson.version),
  },
  server: {
    proxy: Object.fromEntries(
      proxiedPaths.map((path) => [path, { target: API_ORIGIN, changeOrigin: true, ws: path === '/socket.io' }]),
    ),
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1200,
    // dist/.vite/manifest.json: the chunk graph the bundle budget follows (scripts/check-bundle-budget.mjs).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Preact and the router change far less often than the app: their own chunk stays cached
            // across releases.
            { name: 'react-vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router|preact)[\\/]/, priority: 10 },
            // The other packages in one chunk per set of chunks that use them (`entriesAware`), so a
            // screen fetched later brings only the components it uses, not the feed's carrying them all,
            // in fewer files than the automatic split (~50 for the feed): on HTTP/1.1 a phone fetches 6
            // files at a time, a round trip each.
            { name: 'vendor', test: /node_modules[\\/]/, entriesAware: true, priority: 5 },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    testTimeout: 20_000,
    // Vitest's default is one worker fewer than the cores, which on our two-core machines and CI is
    // one: half the machine sat idle while a fresh jsdom was set up for each file (each file still
    // gets its own process and module graph, as by default). 682 tests on a loaded machine: 889 s
    // with one worker, 300-400 s with two. (`vmThreads` took 190 s but shares state between files:
    // 3 tests failed.)
    maxWorkers: '100%',
  },
}));
