import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { APP_VERSION } from '../../../shared/config/links';
import { appVersionQueryOptions } from '../../../shared/platform/platformConfig';

/** 'New version available' (spec §2/§4): shown when the server announces another front-end version. */
export function NewVersionButton() {
  const { t } = useTranslation();
  const { data } = useQuery(appVersionQueryOptions());
  if (!data || data.gui_version === APP_VERSION) return null;
  return (
    <Button
      size="xs"
      radius="xl"
      color="orange"
      variant="light"
      leftSection={<IconRefresh size={14} />}
      onClick={() => window.location.reload()}
      data-testid="new-version-button"
    >
      {t('topBar.newVersion')}
    </Button>
  );
}
