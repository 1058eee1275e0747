import { createTheme, type MantineColorsTuple, type MantineThemeOverride, mergeThemeOverrides } from '@mantine/core';

import { DESKTOP_MIN_WIDTH, MOBILE_MAX_WIDTH } from '../shared/layout/breakpoints';

/**
 * The brand teal. Shades 0-6 are the light tints (backgrounds, outlines, focus rings); 7-9 carry text:
 * 7 is the primary shade (filled buttons with white text, links, the logo) and 9 the text of `light`
 * buttons on shade 1, each at least 4.5:1 against what it sits on (WCAG 2.2 AA, checked by axe in
 * tests/e2e/test_accessibility.py).
 */
const brand: MantineColorsTuple = [
  '#e6fbf7',
  '#d2f4ee',
  '#a6e8dc',
  '#76dbc9',
  '#4fd0b9',
  '#36c9ae',
  '#25c5a8',
  '#007a66', // 5.3:1 with white, 5.0:1 on gray-0
  '#006b5a',
  '#005e4f', // 6.6:1 on shade 1
];

/**
 * Mantine's grays with a darker shade 6: it is the `dimmed` text (counters, dates, hints) and the
 * secondary text of our own styles; Mantine's #868e96 gives 3.3:1 on white, this 5.4:1 (5.1:1 on gray-0).
 */
const gray: MantineColorsTuple = [
  '#f8f9fa',
  '#f1f3f5',
  '#e9ecef',
  '#dee2e6',
  '#ced4da',
  '#adb5bd',
  '#646b73', // Mantine's: #868e96
  '#495057',
  '#343a40',
  '#212529',
];

/**
 * Mantine's reds with darker shades 6-9: shade 6 is the error text of forms and red menu items, 7 the
 * filled red (the liked button, white text); Mantine's #fa5252 / #f03e3e give 3.3:1 / 3.8:1 on white.
 */
const red: MantineColorsTuple = [
  '#fff5f5',
  '#ffe3e3',
  '#ffc9c9',
  '#ffa8a8',
  '#ff8787',
  '#ff6b6b',
  '#d42a2a', // 5.0:1 on white
  '#c92a2a', // 5.5:1 with white
  '#b32424',
  '#9c1f1f',
];

const toEm = (px: number) => `${px / 16}em`;

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand, gray, red },
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '750' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Spec §2: `sm` starts the tablet layout at 767 px and `lg` the desktop layout at 1200 px.
  components: {
    // Mantine parks the focus of an opened menu on a role="presentation" placeholder inside role="menu",
    // which a menu may not contain (axe: aria-required-children); the first item takes the focus instead.
    // A plain entry, not Menu.extend (the same object): that would put Menu and floating-ui in the
    // first download, which loads every menu on first use (frontend/README.md, "Bundle budget").
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
  },
  breakpoints: {
    xs: '36em',
    sm: toEm(MOBILE_MAX_WIDTH + 1),
    md: '62em',
    lg: toEm(DESKTOP_MIN_WIDTH),
    xl: '88em',
  },
});

/** Words the UI kit shows on its own, in the visitor's language. */
export interface ThemeLabels {
  /** The name of every icon-only close button (dialogs, notifications, drawers) that has none of its own. */
  close: string;
}

/** The theme with its translated labels: an explicit `aria-label` on a close button still wins. */
export function themeWithLabels(labels: ThemeLabels): MantineThemeOverride {
  return mergeThemeOverrides(theme, {
    // The button's own element attributes are not in its typed props: the plain theme entry takes them.
    components: { CloseButton: { defaultProps: { 'aria-label': labels.close } } },
  });
}
