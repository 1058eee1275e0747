// What `react` resolves to in the production build (vite.config.ts): Preact's compatibility layer,
// ~10 kB gzipped where React DOM is ~64 kB, plus the one React 19 API it lacks that Mantine uses.
import { createElement } from 'preact';

export * from 'preact/compat';
export { default } from 'preact/compat';

/**
 * React 19.2's <Activity>: Mantine wraps kept-mounted content in it (Tabs panels, Transition and
 * Collapse with `keepMounted`) so hidden content keeps its state. Preact has no equivalent: a wrapper
 * that takes no box of its own (`display: contents`) and hides its children with `display: none`
 * keeps them mounted and out of sight, which is what the panels need.
 */
export function Activity({ mode, children }) {
  return createElement('div', { style: { display: mode === 'hidden' ? 'none' : 'contents' } }, children);
}
