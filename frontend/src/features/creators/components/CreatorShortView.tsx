import { Anchor, Badge, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  IconBrandFacebook,
  IconBrandInstagram,
  IconBrandLinkedin,
  IconBrandX,
  IconBrandYoutube,
  IconCheck,
  IconMapPin,
  IconPlus,
  IconRosetteDiscountCheck,
  IconWorld,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useSession } from '../../../shared/auth/session';
import { canFollow, useFollowToggle } from '../../../shared/engagement/useToggles';
import { formatCount } from '../../../shared/format/formatCount';
import { type CreatorProfile, handleOf, profileLinks, type SocialNetwork } from '../model/creatorProfile';
import { CreatorLogo } from './CreatorLogo';
import classes from './CreatorShortView.module.css';
import { ShareMenu } from './ShareMenu';

const NETWORK_ICONS: Record<SocialNetwork, ReactNode> = {
  website: <IconWorld size={18} aria-hidden="true" />,
  instagram: <IconBrandInstagram size={18} aria-hidden="true" />,
  twitter: <IconBrandX size={18} aria-hidden="true" />,
  youtube: <IconBrandYoutube size={18} aria-hidden="true" />,
  facebook: <IconBrandFacebook size={18} aria-hidden="true" />,
  linkedin: <IconBrandLinkedin size={18} aria-hidden="true" />,
};

type FollowShown = 'hidden' | 'ready';

/**
 * The top of the short view (spec §2): logo, name, handle, the four counts, follow and share. The
 * follow button (spec §2) is for signed-in visitors who are not admins, never on their own profile;
 * a guest's click asks them to sign in. Its count is the one shown among the counts.
 */
export function CreatorHeader({ profile, compact = false }: { profile: CreatorProfile; compact?: boolean }) {
  const session = useSession();
  const visible = canFollow(session, profile.userid) && !profile.is_owner;
  const userKey = session.claims?.sub ?? 'guest';
  const shown: FollowShown = session.signedIn && !visible ? 'hidden' : 'ready';
  // Keyed on the viewer and on what the server said (the profile carries the viewer's is_follow).
  return <HeaderBody key={`${userKey}-${String(profile.is_follow)}`} profile={profile} compact={compact} following={profile.is_follow} shown={shown} />;
}

interface HeaderBodyProps {
  profile: CreatorProfile;
  compact: boolean;
  following: boolean;
  shown: FollowShown;
}

function HeaderBody({ profile, compact, following, shown }: HeaderBodyProps) {
  const { t } = useTranslation();
  const handle = handleOf(profile);
  const follow = useFollowToggle(profile.id, profile.userid, { following, followers: profile.followers });
  return (
    <div className={classes.header} data-compact={compact || undefined} data-testid="creator-header">
      <div className={classes.identity}>
        <CreatorLogo profile={profile} size={compact ? 72 : 112} />
        <Stack gap={2} miw={0}>
          <Group gap={6} wrap="nowrap" miw={0}>
            <Title order={1} className={classes.name} data-testid="creator-name">
              {profile.creator_name}
            </Title>
            {profile.trusted && (
              <IconRosetteDiscountCheck size={22} className={classes.trusted} aria-label={t('creatorPage.trusted')} role="img" />
            )}
          </Group>
          {handle && (
            <Text c="dimmed" size="sm" truncate>
              @{handle}
            </Text>
          )}
        </Stack>
      </div>
      <dl className={classes.counts} aria-label={t('creatorPage.countsLabel')}>
        <Count value={profile.vt_count} label={t('cards.toursLabel', { count: profile.vt_count })} testId="creator-count-tours" />
        <Count value={follow.followers} label={t('cards.followersLabel', { count: follow.followers })} testId="creator-count-followers" />
        <Count value={profile.views} label={t('cards.viewsLabel', { count: profile.views })} testId="creator-count-views" />
        <Count value={profile.likes} label={t('creatorPage.likesLabel', { count: profile.likes })} testId="creator-count-likes" />
      </dl>
      <Group gap="xs" className={classes.actions}>
        {shown === 'ready' && (
          <Button
            radius="xl"
            className={classes.follow}
            variant={follow.following ? 'default' : 'filled'}
            leftSection={follow.following ? <IconCheck size={16} aria-hidden="true" /> : <IconPlus size={16} aria-hidden="true" />}
            aria-pressed={follow.visible ? follow.following : undefined}
            // Busy, not `loading`: a loading button is disabled and would drop the keyboard's focus.
            aria-busy={follow.busy}
            onClick={() => void follow.toggle()}
            data-testid="creator-follow"
            data-followers={follow.followers}
          >
            {follow.visible ? (follow.following ? t('cards.following') : t('cards.follow')) : t('creatorPage.signInToFollow')}
          </Button>
        )}
        <ShareMenu creatorId={profile.id} title={profile.creator_name} />
      </Group>
    </div>
  );
}

function Count({ value, label, testId }: { value: number; label: string; testId: string }) {
  return (
    <div className={classes.count} data-testid={testId} data-value={value}>
      <dt>{label}</dt>
      <dd>{formatCount(value)}</dd>
    </div>
  );
}

/** The rest of the short view: description, services, area served, website and social links. */
export function CreatorAbout({ profile }: { profile: CreatorProfile }) {
  const { t } = useTranslation();
  const links = profileLinks(profile);
  const services = (profile.services ?? []).filter(Boolean);
  const areas = (profile.area_served ?? []).filter(Boolean);
  const description = profile.description?.trim();
  return (
    <Stack gap="lg" className={classes.about} data-testid="creator-about">
      {description && (
        <section aria-labelledby="creator-about-title">
          <Title order={2} id="creator-about-title" className={classes.sectionTitle}>
            {t('creatorPage.about')}
          </Title>
          <Text className={classes.description}>{description}</Text>
        </section>
      )}
      {services.length > 0 && (
        <section aria-labelledby="creator-services-title">
          <Title order={2} id="creator-services-title" className={classes.sectionTitle}>
            {t('creatorPage.services')}
          </Title>
          <Group gap={6} component="ul" className={classes.plainList}>
            {services.map((service) => (
              <Badge component="li" key={service} variant="light" radius="sm" size="lg" tt="none" fw={500}>
                {service}
              </Badge>
            ))}
          </Group>
        </section>
      )}
      {areas.length > 0 && (
        <section aria-labelledby="creator-area-title">
          <Title order={2} id="creator-area-title" className={classes.sectionTitle}>
            {t('creatorPage.areaServed')}
          </Title>
          <Group gap={6} component="ul" className={classes.plainList}>
            {areas.map((area) => (
              <Badge component="li" key={area} variant="outline" color="gray" radius="sm" size="lg" tt="none" fw={500} leftSection={<IconMapPin size={14} aria-hidden="true" />}>
                {area}
              </Badge>
            ))}
          </Group>
        </section>
      )}
      {links.length > 0 && (
        <section aria-labelledby="creator-links-title">
          <Title order={2} id="creator-links-title" className={classes.sectionTitle}>
            {t('creatorPage.links')}
          </Title>
          <Stack gap={6} component="ul" className={classes.plainList}>
            {links.map((link) => (
              <li key={link.network}>
                <Anchor href={link.href} target="_blank" rel="noopener noreferrer nofollow" className={classes.link} data-network={link.network}>
                  {NETWORK_ICONS[link.network]}
                  <span className={classes.linkText}>{link.network === 'website' ? link.label : t(`creatorPage.networks.${link.network}`)}</span>
                </Anchor>
              </li>
            ))}
          </Stack>
        </section>
      )}
      {!description && services.length === 0 && areas.length === 0 && links.length === 0 && (
        <Text c="dimmed" size="sm">
          {t('creatorPage.noDetails')}
        </Text>
      )}
    </Stack>
  );
}

export function CreatorHeaderSkeleton() {
  return (
    <div className={classes.header} data-testid="creator-loading">
      <div className={classes.identity}>
        <Skeleton height={96} width={96} radius="lg" />
        <Stack gap={8}>
          <Skeleton height={26} width={200} radius="sm" />
          <Skeleton height={14} width={120} radius="sm" />
        </Stack>
      </div>
      <Skeleton height={52} radius="md" />
      <Skeleton height={36} width={220} radius="xl" />
    </div>
  );
}
