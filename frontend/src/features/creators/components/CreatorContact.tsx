import { Button } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';
import type { CreatorProfile } from '../model/creatorProfile';

const ContactDialog = lazy(async () => ({ default: (await import('./ContactDialog')).ContactDialog }));

/** Write to the creator (spec §6: a creator's contact form): for every visitor but the owner. */
export function CreatorContact({ profile }: { profile: CreatorProfile }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  if (profile.is_owner) return null;
  return (
    <>
      <Button variant="light" radius="xl" fullWidth leftSection={<IconMail size={16} aria-hidden="true" />} onClick={() => setOpened(true)} data-testid="creator-contact">
        {t('creatorContact.open', { name: profile.creator_name })}
      </Button>
      <MountWhenOpened opened={opened}>
        <ContactDialog profile={profile} opened={opened} onClose={() => setOpened(false)} />
      </MountWhenOpened>
    </>
  );
}
