import { Alert, Anchor, Avatar, Badge, Button, Container, Group, Skeleton, Spoiler, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconBookmark,
  IconBookmarkFilled,
  IconEdit,
  IconEye,
  IconEyeOff,
  IconHeart,
  IconHeartFilled,
  IconMapPin,
  IconShare,
  IconUser,
  IconWorldWww,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';

import { runAppAction, useAvailableAppActions } from '../../../shared/actions/appActions';
import type { TourOut } from '../../../shared/api/generated/types.gen';
import { useSession } from '../../../shared/auth/session';
import { rememberTagLabels } from '../../../shared/filters/tagLabels';
import { formatCount } from '../../../shared/format/formatCount';
import { requestMapTarget } from '../../../shared/map/mapTarget';
import { openMediaForm } from '../../../shared/media/mediaFormRequest';
import { paths } from '../../../shared/routing/paths';
import { tourRoom } from '../../../shared/socket/events';
import { HashtagText } from '../../../shared/tags/HashtagText';
import { useRoom } from '../../../shared/socket/useRealtime';
import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';
import { categoriesQueryOptions, vendorsQueryOptions } from '../../../shared/dictionaries/queries';
import { playerQueryOptions, postView, TourRequestError, tourQueryOptions } from '../api/tourApi';
import { ShareScreen } from '../components/ShareScreen';
import { SimilarTours } from '../components/SimilarTours';
import classes from '../components/TourPage.module.css';
import { TourPlayer } from '../components/TourPlayer';
import { useTourEngagement } from '../components/useTourEngagement';
import { playerFor } from '../model/embed';
import { type PlayerCounters, withLiveCounters } from '../model/playerCounters';

/** The tour page (spec §2 `/virtualtours/{id}` and `/media/{id}`; id is the tour guid). */
export function TourPage() {
  const { id = '' } = useParams();
  const tour = useQuery(tourQueryOptions(id));
  useViewCountedOnce(id, tour.isSuccess);
  // Live counters: other visitors' likes, saves, shares and views arrive in the player query.
  useRoom(tour.isSuccess ? tourRoom(id) : null);

  if (tour.isPending) return <TourSkeleton />;
  if (tour.isError) {
    const missing = tour.error instanceof TourRequestError && (tour.error.status === 404 || tour.error.status === 400);
    return missing ? <TourNotFound /> : <TourLoadFailed onRetry={() => void tour.refetch()} />;
  }
  return <TourDetails tour={tour.data} />;
}

/** Spec §2: post_view once when the tour opens (the server also counts a viewer once per window). */
function useViewCountedOnce(guid: string, loaded: boolean): void {
  const queryClient = useQueryClient();
  const counted = useRef<string | null>(null);
  useEffect(() => {
    if (!loaded || counted.current === guid) return;
    counted.current = guid;
    const key = tourQueryKeys.player(guid);
    postView(guid).then(
      async (answer) => {
        // A player answer still on its way was read before this view was written: drop it (a plain
        // invalidate would join that request rather than replace it), then show the counted view.
        await queryClient.cancelQueries({ queryKey: key });
        if (queryClient.getQueryData(key)) queryClient.setQueryData<PlayerCounters>(key, (current) => current && withLiveCounters(current, answer));
        else await queryClient.invalidateQueries({ queryKey: key });
      },
      () => undefined, // an uncounted view costs the visitor nothing
    );
  }, [guid, loaded, queryClient]);
}

function TourDetails({ tour }: { tour: TourOut }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const vendors = useQuery(vendorsQueryOptions());
  const rule = vendors.data?.find((vendor) => vendor.vendor_id === tour.vendor.id) ?? null;
  const canEdit = tour.is_owned || session.role === 'admin';
  const poster = tour.preview_picture_large ?? tour.preview_picture;

  return (
    <Container size={1240} className={classes.page}>
      <Stack gap="xl">
        <BackLink />
        <div className={classes.layout}>
          <div className={classes.main}>
            {vendors.isPending ? (
              <Skeleton className={classes.player} radius="lg" />
            ) : (
              <TourPlayer title={tour.title} player={playerFor(tour.link, rule)} poster={poster} host={tour.vendor.name} link={tour.link} />
            )}
          </div>
          <aside className={classes.side}>
            <Stack gap="md">
              <OwnerState tour={tour} />
              <UnlistedNote tour={tour} />
              <Title order={1} className={classes.title} data-testid="tour-title">
                {tour.title}
              </Title>
              <CreatorLine tour={tour} />
              <Engagement tour={tour} />
              {canEdit && (
                <Button
                  variant="light"
                  radius="xl"
                  leftSection={<IconEdit size={16} />}
                  onClick={() => openMediaForm({ mode: 'edit', guid: tour.guid })}
                  data-testid="edit-tour"
                  style={{ alignSelf: 'flex-start' }}
                >
                  {t('tourPage.edit')}
                </Button>
              )}
              <TourFacts tour={tour} />
            </Stack>
          </aside>
        </div>
        <section className={classes.section} aria-labelledby="tour-about">
          <Title order={2} size="h4" id="tour-about" mb="sm">
            {t('tourPage.about')}
          </Title>
          {tour.description ? (
            <Spoiler maxHeight={168} showLabel={t('tourPage.more')} hideLabel={t('tourPage.less')}>
              <Text className={classes.description} data-testid="tour-description">
                <HashtagText text={tour.description} tags={tour.tags} />
              </Text>
            </Spoiler>
          ) : (
            <Text c="dimmed" fs="italic" data-testid="tour-description">
              {t('tourPage.noDescription')}
            </Text>
          )}
          <Group gap={6} mt="md">
            {tour.tags.map((tag) => (
              <Badge
                key={tag.id}
                component={Link}
                to={paths.tagSearch(tag.id)}
                onClick={() => rememberTagLabels([tag])}
                title={t('tourPage.tagSearch', { tag: tag.name })}
                variant="light"
                color="gray"
                radius="sm"
                tt="none"
                className={classes.tag}
                data-testid="tour-tag"
              >
                #{tag.name}
              </Badge>
            ))}
            <Anchor component={Link} to={paths.popularTags} size="sm" ml={tour.tags.length > 0 ? 'xs' : 0} data-testid="popular-tags-link">
              {t('tourPage.popularTags')}
            </Anchor>
          </Group>
        </section>
        <SimilarTours guid={tour.guid} language={i18n.language} />
      </Stack>
    </Container>
  );
}

function BackLink() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Back to where the visitor came from (the grid keeps its place); a shared link goes to the feed.
  const goBack = () => (window.history.length > 1 ? void navigate(-1) : void navigate(paths.feed));
  return (
    <Anchor component="button" type="button" onClick={goBack} size="sm" c="gray.7" className={classes.back}>
      <Group gap={6} wrap="nowrap">
        <IconArrowLeft size={16} aria-hidden="true" />
        {t('tourPage.back')}
      </Group>
    </Anchor>
  );
}

/** What the owner sees about their own tour: draft, waiting for approval, an edit waiting. */
function OwnerState({ tour }: { tour: TourOut }) {
  const { t } = useTranslation();
  if (!tour.is_owned) return null;
  const states: ReactNode[] = [];
  if (tour.status === 'draft') states.push(<Badge key="draft" color="gray">{t('tourPage.state.draft')}</Badge>);
  if (tour.approval_state === 'pending') states.push(<Badge key="pending" color="yellow">{t('tourPage.state.pending')}</Badge>);
  if (tour.approval_state === 'rejected') states.push(<Badge key="rejected" color="red">{t('tourPage.state.rejected')}</Badge>);
  if (tour.edit_pending) states.push(<Badge key="edit" color="blue">{t('tourPage.state.editPending')}</Badge>);
  return states.length > 0 ? <Group gap={6}>{states}</Group> : null;
}

/** An unlisted tour says so to everyone who opened it by its link: it is not found anywhere else. */
function UnlistedNote({ tour }: { tour: TourOut }) {
  const { t } = useTranslation();
  if (tour.visibility !== 'unlisted') return null;
  return (
    <Group gap={8} wrap="nowrap" align="center" data-testid="tour-unlisted">
      <Badge color="violet" variant="light" tt="none" style={{ flexShrink: 0 }} leftSection={<IconEyeOff size={12} aria-hidden="true" />}>
        {t('tourPage.unlisted')}
      </Badge>
      <Text size="xs" c="dimmed">
        {tour.is_owned ? t('tourPage.unlistedOwnerHint') : t('tourPage.unlistedHint')}
      </Text>
    </Group>
  );
}

function CreatorLine({ tour }: { tour: TourOut }) {
  const { t } = useTranslation();
  const name = tour.platform_username ?? t('tourPage.unknownCreator');
  const creatorLink = tour.creator_id !== null ? paths.creator(tour.creator_id, tour.platform_username ?? undefined) : null;
  return (
    <Stack gap={4}>
      <Group gap="sm" wrap="nowrap">
        <Avatar radius="xl" size={40} color="brand">
          <IconUser size={20} />
        </Avatar>
        <div>
          <Text size="xs" c="dimmed">
            {t('tourPage.by')}
          </Text>
          {creatorLink ? (
            <Anchor component={Link} to={creatorLink} fw={650} data-testid="tour-creator">
              @{name}
            </Anchor>
          ) : (
            <Text fw={650} data-testid="tour-creator">
              @{name}
            </Text>
          )}
        </div>
      </Group>
      {tour.third_party_creator && (
        <Text size="sm" c="dimmed">
          {t('tourPage.createdBy')}{' '}
          {tour.creator_website ? (
            <Anchor href={tour.creator_website} target="_blank" rel="noopener noreferrer">
              {tour.third_party_creator}
            </Anchor>
          ) : (
            tour.third_party_creator
          )}
        </Text>
      )}
    </Stack>
  );
}

function Engagement({ tour }: { tour: TourOut }) {
  const { t } = useTranslation();
  const player = useQuery(playerQueryOptions(tour.guid));
  const { toggle, share, busy } = useTourEngagement(tour.guid);
  const [sharing, setSharing] = useState(false);
  const counters = player.data ?? { views: tour.views, likes: tour.likes, saves: tour.saves, shared: tour.shared, user_like: 0, user_save: 0 };
  const liked = counters.user_like === 1;
  const saved = counters.user_save === 1;
  const url = `${window.location.origin}${paths.tour(tour.guid)}`;

  return (
    <Stack gap="sm">
      <Group gap="lg" className={classes.counters} data-testid="tour-counters">
        <Counter icon={<IconEye size={18} />} value={counters.views} label={t('tourPage.views', { count: counters.views })} testId="count-views" />
        <Counter icon={<IconHeart size={18} />} value={counters.likes} label={t('tourPage.likes', { count: counters.likes })} testId="count-likes" />
        <Counter icon={<IconBookmark size={18} />} value={counters.saves} label={t('tourPage.saves', { count: counters.saves })} testId="count-saves" />
        <Counter icon={<IconShare size={18} />} value={counters.shared} label={t('tourPage.shares', { count: counters.shared })} testId="count-shared" />
      </Group>
      {/* Busy, not `loading`: a loading button is disabled and would drop the keyboard's focus (the toggles are optimistic). */}
      <Group gap="xs">
        <Button
          radius="xl"
          variant={liked ? 'filled' : 'default'}
          color={liked ? 'red' : undefined}
          leftSection={liked ? <IconHeartFilled size={18} /> : <IconHeart size={18} />}
          aria-busy={busy === 'like'}
          disabled={player.isPending}
          aria-pressed={liked}
          onClick={() => void toggle('like')}
          data-testid="like-button"
        >
          {liked ? t('tourPage.liked') : t('tourPage.like')}
        </Button>
        {!tour.is_owned && (
          <Button
            radius="xl"
            variant={saved ? 'filled' : 'default'}
            leftSection={saved ? <IconBookmarkFilled size={18} /> : <IconBookmark size={18} />}
            aria-busy={busy === 'save'}
            disabled={player.isPending}
            aria-pressed={saved}
            onClick={() => void toggle('save')}
            data-testid="save-button"
          >
            {saved ? t('tourPage.saved') : t('tourPage.save')}
          </Button>
        )}
        <Button radius="xl" variant="default" leftSection={<IconShare size={18} />} onClick={() => setSharing(true)} data-testid="share-button">
          {t('tourPage.share')}
        </Button>
      </Group>
      <ShareScreen opened={sharing} onClose={() => setSharing(false)} url={url} title={tour.title} onShared={share} />
    </Stack>
  );
}

function Counter({ icon, value, label, testId }: { icon: ReactNode; value: number; label: string; testId: string }) {
  return (
    // The full count ("15,400 views") in words for screen readers: a plain span may not carry aria-label.
    <span className={classes.counter} title={label} data-testid={testId} data-value={value}>
      {icon}
      <span aria-hidden="true">{formatCount(value)}</span>
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}

function TourFacts({ tour }: { tour: TourOut }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const categories = useQuery(categoriesQueryOptions());
  const category = categories.data?.find((item) => item.id === tour.category_id);
  const subcategory = category?.subcategories.find((item) => item.id === tour.subcategory_id);
  const [lat, lng] = tour.coordinates ?? [];

  const showOnMap = () => {
    if (lat === undefined || lng === undefined) return;
    requestMapTarget({ kind: 'point', center: [lng, lat] });
    void navigate(paths.map);
  };

  return (
    <Stack gap={8} className={classes.facts}>
      {tour.address_str && (
        <Group gap={8} wrap="nowrap" align="flex-start">
          <IconMapPin size={18} className={classes.factIcon} />
          <div>
            <Text size="sm">{tour.address_str}</Text>
            {lat !== undefined && (
              <Anchor component="button" type="button" size="sm" onClick={showOnMap}>
                {t('tourPage.showOnMap')}
              </Anchor>
            )}
          </div>
        </Group>
      )}
      <Group gap={8} wrap="nowrap">
        <IconWorldWww size={18} className={classes.factIcon} />
        <Text size="sm">
          {t('tourPage.hostedOn')}{' '}
          <Anchor href={tour.link} target="_blank" rel="noopener noreferrer">
            {tour.vendor.name}
          </Anchor>
        </Text>
      </Group>
      {category && (
        <Group gap={6}>
          <Badge variant="outline" color="brand" radius="sm" tt="none">
            {category.name}
          </Badge>
          {subcategory && (
            <Badge variant="outline" color="gray" radius="sm" tt="none">
              {subcategory.name}
            </Badge>
          )}
          {tour.is_ai_generated && (
            <Badge variant="light" color="violet" radius="sm" tt="none">
              {t('tourPage.aiGenerated')}
            </Badge>
          )}
        </Group>
      )}
      {tour.vt_website && (
        <Anchor href={tour.vt_website} target="_blank" rel="noopener noreferrer" size="sm">
          {t('tourPage.learnMore')}
        </Anchor>
      )}
    </Stack>
  );
}

function TourSkeleton() {
  const { t } = useTranslation();
  return (
    <Container size={1240} className={classes.page} role="status" aria-busy="true" aria-label={t('page.loading')}>
      <div className={classes.layout}>
        <Skeleton className={classes.player} radius="lg" />
        <Stack gap="sm" className={classes.side}>
          <Skeleton height={32} width="80%" />
          <Skeleton height={20} width="50%" />
          <Skeleton height={40} width="90%" />
        </Stack>
      </div>
    </Container>
  );
}

/** Spec §8 not-found media: the text, a refresh and a way to report it. */
function TourNotFound() {
  const { t } = useTranslation();
  const reportable = useAvailableAppActions().has('bugReport');
  return (
    <Container size={640} className={classes.page}>
      <Stack align="center" ta="center" gap="md" data-testid="tour-not-found">
        <IconAlertTriangle size={44} color="var(--mantine-color-yellow-7)" />
        <Title order={1} size="h3">
          {t('tourPage.notFound')}
        </Title>
        <Text c="dimmed">{t('tourPage.notFoundHint')}</Text>
        <Group gap="sm" justify="center">
          <Button radius="xl" onClick={() => window.location.reload()}>
            {t('tourPage.refresh')}
          </Button>
          {reportable && (
            <Button radius="xl" variant="default" onClick={() => runAppAction('bugReport')}>
              {t('tourPage.report')}
            </Button>
          )}
          <Button radius="xl" variant="subtle" component={Link} to={paths.feed}>
            {t('tourPage.toFeed')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}

function TourLoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Container size={640} className={classes.page}>
      <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('page.errorTitle')}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('tourPage.loadFailed')}</Text>
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    </Container>
  );
}
