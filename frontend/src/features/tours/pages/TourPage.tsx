import { Badge, Button, Group } from '@mantine/core';
import { IconMap, IconView360 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';

/** The tour page (spec §2 `/virtualtours/{id}` and `/media/{id}`; id is the tour guid). */
export function TourPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  return (
    <PageShell icon={<IconView360 size={28} />} title={t('tour.title')} description={t('tour.description')} size="lg">
      <Group gap="sm">
        <Badge variant="light" size="lg" radius="sm" tt="none" data-testid="tour-id">
          {t('tour.reference', { id })}
        </Badge>
        <Button component={Link} to={paths.map} variant="default" radius="xl" leftSection={<IconMap size={16} />}>
          {t('tour.onMap')}
        </Button>
      </Group>
    </PageShell>
  );
}
