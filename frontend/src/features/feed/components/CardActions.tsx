import { ActionIcon, Button } from '@mantine/core';
import { IconBookmark, IconBookmarkFilled, IconCheck, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { Hint } from '../../../shared/ui/Hint';
import classes from './Cards.module.css';

// The buttons of the cards; their toggles (optimistic flip, login for guests, the failure dialog) are
// shared with the creator page: src/shared/engagement/useToggles.tsx.

export function SaveButton({ saved, busy, onToggle }: { saved: boolean; busy: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const label = saved ? t('cards.unsave') : t('cards.save');
  return (
    <Hint label={label} position="left" className={classes.saveHint}>
      <ActionIcon
        className={classes.saveButton}
        variant="white"
        color="dark"
        radius="xl"
        size="lg"
        aria-label={label}
        aria-pressed={saved}
        // Busy, not `loading`: a loading button is disabled and would drop the keyboard's focus (the toggle is optimistic).
        aria-busy={busy}
        onClick={onToggle}
        data-testid="save-button"
      >
        {saved ? <IconBookmarkFilled size={18} /> : <IconBookmark size={18} />}
      </ActionIcon>
    </Hint>
  );
}

/** Follow on a creator card (shown only where useFollowToggle says it is visible). */
export function FollowButton({ following, busy, onToggle }: { following: boolean; busy: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      className={classes.followButton}
      size="compact-sm"
      radius="xl"
      variant={following ? 'white' : 'filled'}
      color={following ? 'dark' : 'brand'}
      leftSection={following ? <IconCheck size={14} /> : <IconPlus size={14} />}
      loading={busy}
      onClick={onToggle}
      aria-pressed={following}
      data-testid="follow-button"
    >
      {following ? t('cards.following') : t('cards.follow')}
    </Button>
  );
}
