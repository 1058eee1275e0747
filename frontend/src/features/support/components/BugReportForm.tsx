import { ActionIcon, Anchor, Button, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconPhotoPlus, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { runAppAction } from '../../../shared/actions/appActions';
import { errorMessage } from '../../../shared/api/apiError';
import { helpConfigQueryOptions, useSendBugReport, useUploadBugImage } from '../api/supportApi';
import { SCREENSHOTS_MAX, validateBugReport } from '../model/forms';
import classes from './Support.module.css';
import { ReportForm } from './ReportForm';

/** The bug report (spec §2): what went wrong, screenshots uploaded as they are chosen, and the known-bugs link. */
export function BugReportForm({ onSent }: { onSent: () => void }) {
  const [screenshots, setScreenshots] = useState<string[]>([]);
  const send = useSendBugReport();
  return (
    <ReportForm
      kind="bug"
      validate={validateBugReport}
      descriptionRequired
      descriptionRows={4}
      send={send}
      toBody={(draft) => ({ ...draft, page_url: window.location.href, images: screenshots })}
      onSent={onSent}
      before={<KnownBugsLink />}
      after={<Screenshots paths={screenshots} onChange={setScreenshots} />}
    />
  );
}

/** The configured known-bugs page; without one, the Updates screen, whose Fixed and Coming Soon lists say what is known. */
function KnownBugsLink() {
  const { t } = useTranslation();
  const config = useQuery(helpConfigQueryOptions());
  if (config.isPending) return null;
  const url = config.data?.known_bugs_url;
  if (!url) {
    return (
      <Anchor component="button" type="button" size="sm" ta="start" onClick={() => runAppAction('updates')} data-testid="known-bugs-link">
        {t('help.bug.knownBugsInUpdates')}
      </Anchor>
    );
  }
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm" data-testid="known-bugs-link">
      {t('help.bug.knownBugs')} <IconExternalLink size={12} aria-hidden="true" />
    </Anchor>
  );
}

function Screenshots({ paths, onChange }: { paths: string[]; onChange: (paths: string[]) => void }) {
  const { t } = useTranslation();
  const upload = useUploadBugImage();
  const add = (file: File | null) => {
    if (file) upload.mutate(file, { onSuccess: (stored) => onChange([...paths, stored.path]) });
  };
  return (
    <Stack gap={6}>
      <div>
        <Text size="sm" fw={500}>
          {t('help.bug.screenshots', { max: SCREENSHOTS_MAX })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('help.bug.screenshotHint')}
        </Text>
      </div>
      <Group gap="xs">
        {paths.map((path, index) => (
          <div key={path} className={classes.thumb}>
            <Image src={path} alt={t('help.bug.screenshotAlt', { number: index + 1 })} w={96} h={64} fit="cover" radius="sm" />
            <ActionIcon
              size="sm"
              radius="xl"
              color="dark"
              className={classes.remove}
              aria-label={t('help.bug.removeScreenshot', { number: index + 1 })}
              onClick={() => onChange(paths.filter((kept) => kept !== path))}
            >
              <IconX size={12} />
            </ActionIcon>
          </div>
        ))}
        {paths.length < SCREENSHOTS_MAX && (
          <FileButton onChange={add} accept="image/png,image/jpeg,image/webp">
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconPhotoPlus size={16} />} loading={upload.isPending} data-testid="bug-screenshot">
                {upload.isPending ? t('help.bug.uploading') : t('help.bug.addScreenshot')}
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      {upload.isError && (
        <Text size="sm" c="red" role="alert">
          {errorMessage(upload.error, t('help.bug.uploadFailed'))}
        </Text>
      )}
    </Stack>
  );
}
