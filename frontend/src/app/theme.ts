import { createTheme, type MantineColorsTuple } from '@mantine/core';

import { DESKTOP_MIN_WIDTH, MOBILE_MAX_WIDTH } from '../shared/layout/breakpoints';

const brand: MantineColorsTuple = [
  '#e6fbf7',
  '#d2f4ee',
  '#a6e8dc',
  '#76dbc9',
  '#4fd0b9',
  '#36c9ae',
  '#25c5a8',
  '#12ad93',
  '#009a82',
  '#00856f',
];

const toEm = (px: number) => `${px / 16}em`;

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand },
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '750' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Spec §2: `sm` starts the tablet layout at 767 px and `lg` the desktop layout at 1200 px.
  breakpoints: {
    xs: '36em',
    sm: toEm(MOBILE_MAX_WIDTH + 1),
    md: '62em',
    lg: toEm(DESKTOP_MIN_WIDTH),
    xl: '88em',
  },
});
