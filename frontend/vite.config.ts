import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

import packageJson from './package.json' with { type: 'json' };

// In development the API runs on its own port; the built app is served by FastAPI on the same origin.
const API_ORIGIN = 'http://127.0.0.1:8000';
const proxiedPaths = ['/v2', '/socket.io', '/uploads', '/health'];

export default defineConfig({
  plugins: [react()],
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
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    testTimeout: 20_000,
  },
});
