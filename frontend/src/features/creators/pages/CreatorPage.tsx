import { Alert, Button, Center, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconHome, IconUserQuestion } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';

import { useSession } from '../../../shared/auth/session';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { paths } from '../../../shared/routing/paths';
import { creatorRoom } from '../../../shared/socket/events';
import { useRoom } from '../../../shared/socket/useRealtime';
import { CreatorNotFound, creatorPageQueryOptions } from '../api/creatorProfile';
import { CreatorContact } from '../components/CreatorContact';
import { CreatorOwnerDialogs, CreatorOwnerTools } from '../components/CreatorOwnerTools';
import { CreatorAbout, CreatorHeader, CreatorHeaderSkeleton } from '../components/CreatorShortView';
import { type CreatorPageParts, FullProfile } from '../components/FullProfile';
import type { CreatorProfile } from '../model/creatorProfile';
import classes from './CreatorPage.module.css';

/**
 * The creator page (spec §2 `/creator/{creatorId}`, an optional handle after it; a name in place of
 * the id opens the creator by name): the short view beside the Full Profile, or on a phone the
 * tours and the profile as two tabs.
 */
export function CreatorPage({ parts }: { parts: CreatorPageParts }) {
  const { creatorId = '' } = useParams();
  const session = useSession();
  const profile = useQuery(creatorPageQueryOptions(creatorId, session.claims?.sub ?? (session.signedIn ? 'user' : 'guest')));
  // Followers, views and likes move live while the page is open (written into the profile's cache).
  useRoom(profile.data ? creatorRoom(profile.data.id) : null);
  useDocumentTitle(profile.data?.creator_name);

  if (profile.isPending) return <CreatorPageLoading />;
  if (profile.error instanceof CreatorNotFound) return <CreatorMissing />;
  if (profile.isError) return <CreatorPageError onRetry={() => void profile.refetch()} />;
  return <CreatorProfileView profile={profile.data} parts={parts} />;
}

function CreatorProfileView({ profile, parts }: { profile: CreatorProfile; parts: CreatorPageParts }) {
  return (
    <>
      <CreatorLayout profile={profile} parts={parts} />
      {profile.is_owner && <CreatorOwnerDialogs profile={profile} />}
    </>
  );
}

/** The short view beside the Full Profile, or on a phone the tours and the profile as two tabs. */
function CreatorLayout({ profile, parts }: { profile: CreatorProfile; parts: CreatorPageParts }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  if (mobile) {
    return (
      <main className={classes.page} data-testid="creator-page" data-creator-id={profile.id}>
        <div className={classes.card}>
          <CreatorHeader profile={profile} compact />
          {profile.is_owner && <CreatorOwnerTools profile={profile} />}
        </div>
        <Tabs defaultValue="tours" radius="md" className={classes.tabs} keepMounted={false}>
          <Tabs.List grow>
            <Tabs.Tab value="tours" data-testid="creator-tab-tours">
              {t('creatorPage.tours')}
            </Tabs.Tab>
            <Tabs.Tab value="profile" data-testid="creator-tab-profile">
              {t('creator.profile')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="tours" pt="md">
            <FullProfile profile={profile} parts={parts} />
          </Tabs.Panel>
          <Tabs.Panel value="profile" pt="md">
            <div className={classes.card}>
              <CreatorAbout profile={profile} />
              <CreatorContact profile={profile} />
            </div>
          </Tabs.Panel>
        </Tabs>
      </main>
    );
  }
  return (
    <main className={`${classes.page} ${classes.columns}`} data-testid="creator-page" data-creator-id={profile.id}>
      <aside className={`${classes.card} ${classes.aside}`} aria-label={t('creatorPage.profileLabel')}>
        <CreatorHeader profile={profile} />
        {profile.is_owner && <CreatorOwnerTools profile={profile} />}
        <CreatorAbout profile={profile} />
        <CreatorContact profile={profile} />
      </aside>
      <FullProfile profile={profile} parts={parts} />
    </main>
  );
}

/** The tab's title names the creator while the page is open. */
function useDocumentTitle(name: string | undefined): void {
  useEffect(() => {
    if (!name) return undefined;
    const previous = document.title;
    document.title = `${name} · TourAtlas`;
    return () => {
      document.title = previous;
    };
  }, [name]);
}

function CreatorPageLoading() {
  const { t } = useTranslation();
  return (
    <main className={`${classes.page} ${classes.columns}`} aria-busy="true" aria-label={t('page.loading')}>
      <div className={`${classes.card} ${classes.aside}`}>
        <CreatorHeaderSkeleton />
      </div>
      <Stack gap="md">
        <Skeleton height={36} width={260} radius="xl" />
        <div className={classes.skeletonGrid}>
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} height={220} radius="lg" />
          ))}
        </div>
      </Stack>
    </main>
  );
}

/** An unknown creator, or one whose profile is not public: say so, and offer the way back. */
function CreatorMissing() {
  const { t } = useTranslation();
  return (
    <main className={classes.page}>
      <Center className={classes.status} data-testid="creator-not-found">
        <Stack align="center" gap="md" maw={460} ta="center">
          <div className={classes.statusIcon} aria-hidden="true">
            <IconUserQuestion size={34} stroke={1.6} />
          </div>
          <Title order={1} size="h2">
            {t('creatorPage.notFoundTitle')}
          </Title>
          <Text c="dimmed" size="lg">
            {t('creatorPage.notFound')}
          </Text>
          <Button component={Link} to={paths.feed} radius="xl" leftSection={<IconHome size={18} aria-hidden="true" />}>
            {t('creatorPage.backToFeed')}
          </Button>
        </Stack>
      </Center>
    </main>
  );
}

function CreatorPageError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <main className={classes.page}>
      <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('creatorPage.errorTitle')} data-testid="creator-error">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('creatorPage.errorText')}</Text>
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    </main>
  );
}
