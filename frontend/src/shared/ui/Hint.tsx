import type { ReactNode } from 'react';

import classes from './Hint.module.css';

/**
 * A short label shown while the pointer is over (or the focus is in) its child: CSS only, for the
 * controls of the feed's first screen, which would otherwise bring Mantine's Tooltip and floating-ui
 * with them (frontend/README.md, "Bundle budget"). The child carries its own accessible name; the
 * hint repeats it for sighted pointer users, so it is hidden from assistive technology.
 */
export function Hint({
  label,
  position = 'bottom',
  className,
  children,
}: {
  label: string;
  position?: 'bottom' | 'bottom-end' | 'left';
  className?: string;
  children: ReactNode;
}) {
  return (
    <span className={className ? `${classes.hint} ${className}` : classes.hint} data-hint={label} data-position={position}>
      {children}
    </span>
  );
}
