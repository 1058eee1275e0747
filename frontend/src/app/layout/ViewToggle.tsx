import { SegmentedControl, VisuallyHidden } from '@mantine/core';
import { IconLayoutGrid, IconMap } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';

import { paths } from '../../shared/routing/paths';
import classes from './TopBar.module.css';

type View = 'grid' | 'map';

/** The map/grid toggle (spec §2), keeping a creator scope when there is one. */
export function ViewToggle() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { creatorName } = useParams();
  const view: View = pathname.endsWith('/map') ? 'map' : 'grid';

  const go = (next: string) => {
    const target = next as View;
    if (creatorName) void navigate(target === 'map' ? paths.creatorMap(creatorName) : paths.creatorGrid(creatorName));
    else void navigate(target === 'map' ? paths.map : paths.feed);
  };

  return (
    <SegmentedControl
      radius="xl"
      size="sm"
      value={view}
      onChange={go}
      data-testid="view-toggle"
      aria-label={t('topBar.viewToggle')}
      data={[
        { value: 'grid', label: <ToggleIcon label={t('topBar.grid')} icon={<IconLayoutGrid size={16} aria-hidden="true" />} /> },
        { value: 'map', label: <ToggleIcon label={t('topBar.map')} icon={<IconMap size={16} aria-hidden="true" />} /> },
      ]}
    />
  );
}

/** An icon-only choice: the label is hidden text inside the radio's label (a plain span may not carry aria-label). */
function ToggleIcon({ label, icon }: { label: string; icon: ReactNode }) {
  return (
    // A plain title, not Mantine's Tooltip: the control clips its options (overflow: hidden) and the
    // top bar stays free of floating-ui (frontend/README.md, "Bundle budget").
    <span className={classes.icon} title={label}>
      {icon}
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}
