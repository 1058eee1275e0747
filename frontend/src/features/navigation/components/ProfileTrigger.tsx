import { Avatar, Group, Indicator } from '@mantine/core';
import { IconMenu2, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { useSession } from '../../../shared/auth/session';
import { formatCount } from '../../../shared/format/formatCount';
import { useModerationWaiting } from '../api/moderationCounts';

/** What the profile menu's button shows: the menu icon, the avatar and, for an admin, the items waiting. */
export function ProfileTriggerContent() {
  const { t } = useTranslation();
  const session = useSession();
  const waiting = useModerationWaiting();
  return (
    <Group gap={6} wrap="nowrap">
      <IconMenu2 size={18} />
      <Indicator
        label={<span data-testid="moderation-indicator">{formatCount(waiting)}</span>}
        size={16}
        color="red"
        offset={3}
        disabled={waiting === 0}
        title={t('moderationQueue.waiting', { count: waiting })}
      >
        <Avatar size={28} radius="xl" color={session.signedIn ? 'brand' : 'gray'} variant={session.signedIn ? 'filled' : 'light'}>
          <IconUser size={16} />
        </Avatar>
      </Indicator>
    </Group>
  );
}
