import { Button, Center, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBookmarks, IconHeartHandshake, IconLogin2, IconTrendingUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { openLoginDialog } from '../../../shared/auth/loginDialog';
import { updateFilterState } from '../../../shared/filters/filterState';
import classes from './InfiniteCardGrid.module.css';

export type PersonalFeed = 'for_you' | 'saves_follows';

const showPopular = () => updateFilterState({ feed: 'popular', sorting: null, savesFollow: false });

/**
 * What a guest sees on a feed made of their own likes, saves and follows (issue 18 part 8): what the
 * feed would show and a way to sign in, not a grid that cannot be theirs (or a hint about categories).
 */
export function SignInPrompt({ feed }: { feed: PersonalFeed }) {
  const { t } = useTranslation();
  const FeedIcon = feed === 'for_you' ? IconHeartHandshake : IconBookmarks;
  return (
    <Center className={classes.empty}>
      <Stack align="center" gap="sm" maw={440} ta="center" data-testid="feed-sign-in">
        <ThemeIcon size={56} radius="xl" variant="light">
          <FeedIcon size={30} stroke={1.5} />
        </ThemeIcon>
        <Text component="h2" fw={650} size="lg" m={0}>
          {t(`feed.signIn.${feed}.title`)}
        </Text>
        <Text c="dimmed">{t(`feed.signIn.${feed}.text`)}</Text>
        <Group gap="sm" justify="center" mt="xs">
          <Button radius="xl" leftSection={<IconLogin2 size={18} />} onClick={openLoginDialog} data-testid="feed-sign-in-button">
            {t('feed.signIn.button')}
          </Button>
          <Button radius="xl" variant="default" leftSection={<IconTrendingUp size={18} />} onClick={showPopular}>
            {t('feed.signIn.browse')}
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}

/** Saves & Follows with nothing saved or followed yet: how it fills up, and somewhere to start. */
export function SavesFollowsEmpty() {
  const { t } = useTranslation();
  return (
    <Center className={classes.empty}>
      <Stack align="center" gap="sm" maw={440} ta="center" data-testid="feed-empty">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconBookmarks size={30} stroke={1.5} />
        </ThemeIcon>
        <Text component="h2" fw={650} size="lg" m={0}>
          {t('feed.savesFollowsEmpty.title')}
        </Text>
        <Text c="dimmed">{t('feed.savesFollowsEmpty.text')}</Text>
        <Button radius="xl" variant="default" leftSection={<IconTrendingUp size={18} />} onClick={showPopular} mt="xs">
          {t('feed.savesFollowsEmpty.browse')}
        </Button>
      </Stack>
    </Center>
  );
}
