import { useMediaQuery } from '@mantine/hooks';

/** Spec §2/§9 layout: mobile up to 766 px, tablet 767–1199 px, desktop from 1200 px. */
export const MOBILE_MAX_WIDTH = 766;
export const DESKTOP_MIN_WIDTH = 1200;

export const MOBILE_QUERY = `(max-width: ${MOBILE_MAX_WIDTH}px)`;
export const DESKTOP_QUERY = `(min-width: ${DESKTOP_MIN_WIDTH}px)`;

export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false }) ?? false;
}

export function useIsDesktop(): boolean {
  return useMediaQuery(DESKTOP_QUERY, false, { getInitialValueInEffect: false }) ?? false;
}
