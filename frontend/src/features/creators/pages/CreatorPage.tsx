import { Button, Group } from '@mantine/core';
import { IconId, IconLayoutGrid, IconMap } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import { PageShell } from '../../../shared/ui/PageShell';

/** The creator page (spec §2 `/creator/{creatorId}` with an optional creator name after it). */
export function CreatorPage() {
  const { t } = useTranslation();
  const { creatorName } = useParams();
  const title = creatorName ? t('creator.titleNamed', { name: creatorName }) : t('creator.title');
  return (
    <PageShell icon={<IconId size={28} />} title={title} description={t('creator.description')} size="lg">
      {creatorName && <CreatorViews creatorName={creatorName} />}
    </PageShell>
  );
}

function CreatorViews({ creatorName }: { creatorName: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="sm">
      <Button component={Link} to={paths.creatorMap(creatorName)} variant="default" radius="xl" leftSection={<IconMap size={16} />}>
        {t('creator.viewMap')}
      </Button>
      <Button component={Link} to={paths.creatorGrid(creatorName)} variant="default" radius="xl" leftSection={<IconLayoutGrid size={16} />}>
        {t('creator.viewGrid')}
      </Button>
    </Group>
  );
}
