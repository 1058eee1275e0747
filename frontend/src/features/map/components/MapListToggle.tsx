import { Button } from '@mantine/core';
import { IconList } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import type { MapPanels } from './useMapPanels';

/** "List": the keyboard's way to the map's tours (spec §2 list view), pressed while the list shows. */
export function MapListToggle({ panels, className }: { panels: MapPanels; className?: string }) {
  const { t } = useTranslation();
  return (
    <Button
      ref={panels.listToggle}
      className={className}
      radius="xl"
      size="sm"
      variant={panels.listOpen ? 'filled' : 'white'}
      color={panels.listOpen ? 'brand' : 'dark'}
      leftSection={<IconList size={16} aria-hidden="true" />}
      aria-expanded={panels.listOpen}
      aria-controls={panels.listOpen ? panels.listId : undefined}
      onClick={panels.toggleList}
      data-testid="map-list-toggle"
    >
      {t('map.listToggle')}
    </Button>
  );
}
