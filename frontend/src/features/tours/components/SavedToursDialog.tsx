import { ActionIcon, Alert, Button, Center, Loader, Modal, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconBookmarkFilled, IconBookmarks } from '@tabler/icons-react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import type { MediaCard } from '../../../shared/api/generated/types.gen';
import { useSession } from '../../../shared/auth/session';
import { discoveryQueryKeys } from '../../../shared/discovery/discoveryQueryKeys';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { tourQueryKeys } from '../../../shared/tours/tourQueryKeys';
import { showMessageDialog } from '../../../shared/ui/messageDialog';
import { savedToursQueryOptions, unsaveTour } from '../api/tourApi';
import { savedCards, type SavedPages, withoutSavedTour } from '../model/savedTours';
import classes from './SavedTours.module.css';
import { TourCard } from './TourCard';

/** The saved tours modal (spec §2); loaded when first opened (SavedToursHost). */
export function SavedToursDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('savedTours.title')}
      size="80rem"
      fullScreen={mobile}
      radius={mobile ? 0 : 'lg'}
      styles={{ title: { fontWeight: 700, fontSize: '1.25rem' } }}
    >
      {opened && (
        <div data-testid="saved-tours">
          <SavedToursGrid onOpenTour={onClose} />
        </div>
      )}
    </Modal>
  );
}

function SavedToursGrid({ onOpenTour }: { onOpenTour: () => void }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const userId = Number(session.claims?.sub ?? Number.NaN);
  // Opened afresh every time: saves made on tour pages meanwhile show up.
  const query = useInfiniteQuery({ ...savedToursQueryOptions(userId, i18n.language), staleTime: 0, enabled: Number.isInteger(userId) });
  const unsave = useUnsave(userId, i18n.language);
  const saved = savedCards(query.data?.pages ?? []);
  const { hasNextPage, isFetching, fetchNextPage } = query;

  // Every card shown was unsaved while more are left: bring the next ones in.
  useEffect(() => {
    if (saved.length === 0 && hasNextPage && !isFetching) void fetchNextPage();
  }, [saved.length, hasNextPage, isFetching, fetchNextPage]);

  // Cards already shown stay on screen even when a later page fails.
  if (saved.length > 0) {
    return (
      <Stack gap="md">
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
          {saved.map((card) => (
            <div key={card.guid} className={classes.item} data-testid="saved-tour">
              <TourCard card={card} onOpen={onOpenTour} />
              <UnsaveButton onClick={() => void unsave(card)} />
            </div>
          ))}
        </SimpleGrid>
        {query.isFetchingNextPage && (
          <Center>
            <Loader size="sm" />
          </Center>
        )}
        {query.isFetchNextPageError ? (
          <Center>
            <Button variant="default" radius="xl" onClick={() => void fetchNextPage()}>
              {t('common.retry')}
            </Button>
          </Center>
        ) : (
          hasNextPage && <LoadMoreTrigger onVisible={() => void fetchNextPage()} disabled={query.isFetchingNextPage} moreLabel={t('savedTours.more')} />
        )}
      </Stack>
    );
  }
  if (query.isError || !Number.isInteger(userId)) {
    return (
      <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('page.errorTitle')}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('savedTours.failed')}</Text>
          <Button size="xs" variant="white" color="red" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (query.isPending || hasNextPage || isFetching) {
    return (
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="md" role="status" aria-busy="true" aria-label={t('page.loading')}>
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} radius="lg" h={220} />
        ))}
      </SimpleGrid>
    );
  }
  return (
    <Stack align="center" ta="center" gap="sm" py="xl" data-testid="saved-tours-empty">
      <ThemeIcon size={56} radius="xl" variant="light">
        <IconBookmarks size={28} />
      </ThemeIcon>
      <Text fw={650}>{t('savedTours.empty')}</Text>
      <Text c="dimmed" size="sm" maw={420}>
        {t('savedTours.emptyHint')}
      </Text>
    </Stack>
  );
}

function UnsaveButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('cards.unsave')} withArrow>
      <ActionIcon className={classes.unsave} variant="white" color="dark" radius="xl" size="lg" aria-label={t('cards.unsave')} onClick={onClick} data-testid="unsave-button">
        <IconBookmarkFilled size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * Unsave from the list: the card leaves at once; the server's refusal brings the list back as the
 * server has it and is explained (spec §8). The tour page and the feed catch up when next shown.
 */
function useUnsave(userId: number, language: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { queryKey } = savedToursQueryOptions(userId, language);

  return async (card: MediaCard) => {
    // A page arriving meanwhile was asked for with the old offsets: drop it, the list asks again.
    await queryClient.cancelQueries({ queryKey });
    queryClient.setQueryData<SavedPages>(queryKey, (data) => (data ? withoutSavedTour(data, card.guid) : data));
    try {
      await unsaveTour(card.guid, card.saves);
      void queryClient.invalidateQueries({ queryKey: tourQueryKeys.player(card.guid) });
      void queryClient.invalidateQueries({ queryKey: discoveryQueryKeys.all, refetchType: 'none' });
    } catch (error) {
      void queryClient.invalidateQueries({ queryKey });
      const message = (error as { message?: unknown } | null)?.message;
      showMessageDialog({
        title: t('engagement.failedTitle'),
        message: typeof message === 'string' && message.trim() ? message : t('engagement.failed'),
        okLabel: t('common.ok'),
      });
    }
  };
}

/**
 * Loads the next page when the end of the list scrolls into view (spec §2 endless scroll). The
 * observer is made again after every page, so a list still too short to scroll keeps loading.
 * Without IntersectionObserver, a button does it.
 */
function LoadMoreTrigger({ onVisible, disabled, moreLabel }: { onVisible: () => void; disabled: boolean; moreLabel: string }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const latest = useRef(onVisible);
  const observable = typeof IntersectionObserver !== 'undefined';

  useEffect(() => {
    latest.current = onVisible;
  });

  useEffect(() => {
    const element = sentinel.current;
    if (!element || disabled || !observable) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) latest.current();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [disabled, observable]);

  if (!observable) {
    return (
      <Center>
        <Button variant="default" radius="xl" onClick={onVisible} disabled={disabled}>
          {moreLabel}
        </Button>
      </Center>
    );
  }
  return <div ref={sentinel} className={classes.sentinel} aria-hidden="true" data-testid="saved-tours-more" />;
}
