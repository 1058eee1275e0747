import { Alert, Anchor, Button, Loader, Stack, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { helpConfigQueryOptions } from '../api/supportApi';

/** 'Tutorial videos' (spec §2 help tool): the list the server is configured with, opened in a new tab. */
export function TutorialVideos() {
  const { t } = useTranslation();
  const config = useQuery(helpConfigQueryOptions());
  if (config.isPending) return <Loader size="sm" mx="auto" aria-label={t('page.loading')} />;
  if (config.isError) {
    return (
      <Alert color="red" title={t('help.videosFailed')}>
        <Button size="xs" variant="light" color="red" onClick={() => void config.refetch()}>
          {t('updates.retry')}
        </Button>
      </Alert>
    );
  }
  if (config.data.tutorial_videos.length === 0) return <Text c="dimmed">{t('help.videosEmpty')}</Text>;
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {config.data.tutorial_videos.map((video) => (
        <li key={video.url}>
          <Anchor href={video.url} target="_blank" rel="noopener noreferrer" style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
            <IconPlayerPlay size={16} aria-hidden="true" />
            {video.title}
          </Anchor>
        </li>
      ))}
    </Stack>
  );
}
