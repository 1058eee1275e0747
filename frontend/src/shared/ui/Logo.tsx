import { Group, Text, VisuallyHidden } from '@mantine/core';

import classes from './Logo.module.css';

interface LogoProps {
  /** Only the mark, for narrow screens (spec §2: small logo on mobile). */
  compact?: boolean;
}

/** The TourAtlas mark (a globe with a 360° orbit) and wordmark. */
export function Logo({ compact = false }: LogoProps) {
  return (
    <Group gap={8} wrap="nowrap" className={classes.logo}>
      <LogoMark />
      {compact ? (
        <VisuallyHidden>TourAtlas</VisuallyHidden>
      ) : (
        <Text component="span" className={classes.wordmark}>
          Tour<span className={classes.accent}>Atlas</span>
        </Text>
      )}
    </Group>
  );
}

export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className={classes.mark}>
      <defs>
        <linearGradient id="touratlas-mark" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#14b8a6" />
          <stop offset="1" stopColor="#0e7490" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#touratlas-mark)" />
      <circle cx="16" cy="16" r="8.5" fill="none" stroke="#fff" strokeWidth="1.8" />
      <path d="M16 7.5c-2.6 2.4-3.9 5.2-3.9 8.5s1.3 6.1 3.9 8.5c2.6-2.4 3.9-5.2 3.9-8.5S18.6 9.9 16 7.5z" fill="none" stroke="#fff" strokeWidth="1.5" />
      <ellipse cx="16" cy="16" rx="13" ry="4.2" fill="none" stroke="#fde68a" strokeWidth="1.6" transform="rotate(-18 16 16)" />
      <circle cx="27.6" cy="12.2" r="1.7" fill="#fde68a" />
    </svg>
  );
}
