#!/usr/bin/env node
// The JavaScript budget of the built front end, checked in the test command after the build.
//
// For each route: the scripts the browser must fetch before the route can draw, from Vite's manifest
// (frontend/dist/.vite/manifest.json, `build.manifest: true`): the entry (index.html) and everything
// it imports statically, plus the route's lazily loaded page and its static imports. Sizes are gzip
// level 9 of each file, the figure a browser that only takes gzip would download (brotli is smaller).
// Fails when the feed exceeds its budget, so a later screen cannot silently grow what the feed loads.
//
//   node scripts/check-bundle-budget.mjs [frontend/dist]
//
// bench/bench_route_js.py measures the same in Chromium (every script a route actually requests).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1000;
// Issue 12 part 7: the feed loads at most 170 KB of gzipped JavaScript. It loads ~152 KB: the production
// build renders with Preact (preact/compat, ~10 KB where React DOM is ~64 KB; vite.config.ts), and
// what the first screen does not draw is fetched on demand: every other route, the dialogs, the
// Russian catalogue, socket.io-client, the notifications and modals hosts, and the top bar's menus,
// filters popover and search suggestions, which draw a stand-in until the visitor reaches for them
// (src/shared/ui/OnFirstUse.tsx), so Mantine's Menu, Popover, Combobox, Modal and floating-ui are not
// in it either; nor are the administrators' English texts (locales/en.admin.ts, added when their screens
// load). What is left: Preact + the router ~41 KB, i18next + English ~26 KB, react-query
// ~14 KB, Mantine's provider, styles API and the plain components the screen draws, and the feed's
// own code (bench/RESULTS.md).
const FEED_LIMIT_KB = 170;

// Route → the source modules its router entry loads lazily (frontend/src/app/router.tsx). The feed's
// page is part of the entry itself.
const ROUTES = {
  '/feed': [],
  '/map': ['src/features/map/pages/MapPage.tsx'],
  '/virtualtours/:id': ['src/features/tours/pages/TourPage.tsx'],
  '/creator/:id': ['src/app/routes/CreatorRoute.tsx'],
  '/:creator/grid': ['src/features/feed/pages/CreatorGridPage.tsx'],
  '/registration': ['src/features/auth/pages/RegistrationPage.tsx'],
  '/create_account': ['src/features/auth/pages/CreateAccountPage.tsx'],
  '/billing/plans': ['src/features/billing/pages/PlansPage.tsx'],
  '/admin/mailing-list': ['src/features/mailing/pages/MailingListPage.tsx'],
  '/admin/statistics': ['src/features/statistics/pages/StatisticsPage.tsx'],
};
const ENTRY = 'index.html';

const dist = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'frontend', 'dist'));
let manifest;
try {
  manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
} catch (error) {
  console.error(`No Vite manifest in ${dist}/.vite (build with build.manifest: true): ${error.message}`);
  process.exit(2);
}

const gzippedSizes = new Map();
function gzippedSize(file) {
  if (!gzippedSizes.has(file)) gzippedSizes.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gzippedSizes.get(file);
}

/** The chunk's own file and those of every chunk it imports statically, transitively. */
function staticClosure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the manifest: was it renamed? Update ROUTES in ${import.meta.filename}`);
  if (files.has(chunk.file)) return files;
  if (chunk.file.endsWith('.js')) files.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, files);
  return files;
}

const total = (files) => [...files].reduce((sum, file) => sum + gzippedSize(file), 0);
const entryFiles = staticClosure(ENTRY);
const rows = Object.entries(ROUTES).map(([route, modules]) => {
  const files = new Set(entryFiles);
  for (const module of modules) staticClosure(module, files);
  return { route, scripts: files.size, bytes: total(files) };
});

console.log('Initial JavaScript per route (gzip -9; entry and its static imports, plus the route page):');
for (const { route, scripts, bytes } of rows) {
  console.log(`  ${route.padEnd(22)} ${(bytes / KB).toFixed(1).padStart(7)} KB in ${scripts} scripts`);
}
const largest = [...entryFiles].sort((a, b) => gzippedSize(b) - gzippedSize(a)).slice(0, 5);
console.log(`The entry's largest: ${largest.map((file) => `${file} ${(gzippedSize(file) / KB).toFixed(1)} KB`).join(', ')}`);

const feed = rows.find((row) => row.route === '/feed');
const feedKb = feed.bytes / KB;
if (feedKb > FEED_LIMIT_KB) {
  console.error(
    `FAIL: the feed loads ${feedKb.toFixed(1)} KB of gzipped JavaScript, over its limit of ${FEED_LIMIT_KB} KB. ` +
      'Load what the feed does not draw at once with React.lazy / import() (frontend/README.md, "Bundle budget").',
  );
  process.exit(1);
}
console.log(`OK: the feed's ${feedKb.toFixed(1)} KB is within its limit of ${FEED_LIMIT_KB} KB.`);
