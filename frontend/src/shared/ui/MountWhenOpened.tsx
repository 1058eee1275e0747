import { type ReactNode, Suspense, useState } from 'react';

/**
 * Renders a dialog that is loaded on demand (`React.lazy`) only once it is first opened, and keeps it
 * mounted from then on so it can animate closed. The feed's first download then carries no dialog a
 * visit may never open (frontend/README.md, "Bundle budget"). Nothing is shown while the chunk arrives.
 */
export function MountWhenOpened({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(opened);
  if (opened && !wanted) setWanted(true); // adjusting state while rendering: no extra commit
  return wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
