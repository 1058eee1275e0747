import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Anchor, Badge, Button, Center, Checkbox, Group, Loader, Pagination, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconCircleCheck, IconExternalLink, IconMapPin, IconPhoto, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { errorMessage } from '../../../shared/api/apiError';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { paths } from '../../../shared/routing/paths';
import { CRAWLED_PAGE_SIZE, type CrawledOutcome, type CrawledTour, crawledQueryOptions, useRejectCrawled } from '../api/crawlerApi';
import { CrawledApproveDialog } from './CrawledApproveDialog';
import classes from './Crawler.module.css';

/** What became of the tours an approval or rejection could not settle, by title. */
interface Report {
  lines: { id: number; title: string; outcome: CrawledOutcome }[];
}

/** Spec §2 "crawler tours": the tours crawls filed, waiting for an admin to publish or set them aside. */
export function CrawledTours() {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [page, setPage] = useState(1);
  const list = useQuery(crawledQueryOptions((page - 1) * CRAWLED_PAGE_SIZE));
  const tours = useMemo(() => list.data?.data ?? [], [list.data]);
  const total = list.data?.total_items ?? 0;
  const pages = Math.max(1, Math.ceil(total / CRAWLED_PAGE_SIZE));
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [approving, setApproving] = useState<readonly CrawledTour[]>([]);
  const [report, setReport] = useState<Report | null>(null);
  const reject = useRejectCrawled();

  // Tours that left the page (decided here or by another admin) leave the selection.
  useEffect(() => {
    setSelected((current) => {
      const kept = [...current].filter((id) => tours.some((tour) => tour.id === id));
      return kept.length === current.size ? current : new Set(kept);
    });
  }, [tours]);
  // A page emptied by decisions falls back to the last page that has tours.
  useEffect(() => {
    if (list.data && tours.length === 0 && page > 1 && total > 0) setPage(pages);
  }, [list.data, tours.length, page, total, pages]);

  const titleOf = (id: number, among: readonly CrawledTour[]) => among.find((tour) => tour.id === id)?.title ?? t('crawler.tours.untitled', { id });
  const showOutcomes = (outcomes: readonly CrawledOutcome[], among: readonly CrawledTour[]) => {
    const lines = outcomes.filter((outcome) => outcome.status !== 'approved' && outcome.status !== 'rejected').map((outcome) => ({ id: outcome.id, title: titleOf(outcome.id, among), outcome }));
    setReport(lines.length > 0 ? { lines } : null);
  };

  const rejectTours = (targets: readonly CrawledTour[]) => {
    if (targets.length === 0) return;
    reject.mutate(
      targets.map((tour) => tour.id),
      {
        onSuccess: (answer) => {
          const done = answer.data.filter((outcome) => outcome.status === 'rejected').length;
          if (done > 0) notifications.show({ color: 'teal', message: t('crawler.tours.rejected', { count: done }) });
          showOutcomes(answer.data, targets);
        },
        onError: (error) => notifications.show({ color: 'red', title: t('crawler.actionFailed'), message: errorMessage(error, t('page.errorText')) }),
      },
    );
  };

  const chosen = tours.filter((tour) => selected.has(tour.id));
  const allSelected = tours.length > 0 && chosen.length === tours.length;

  if (list.isPending) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label={t('page.loading')} data-testid="crawled-loading">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} h={96} radius="md" />
        ))}
      </Stack>
    );
  }
  if (list.isError && !list.data) {
    return (
      <Alert color="red" variant="light" radius="lg" icon={<IconAlertTriangle size={20} />} title={t('page.errorTitle')} data-testid="crawled-error">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('crawler.tours.loadFailed')}</Text>
          <Button size="xs" variant="white" color="red" onClick={() => void list.refetch()}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }

  return (
    <Stack gap="md" data-testid="crawled-tours">
      {report && (
        <Alert
          color="yellow"
          variant="light"
          radius="lg"
          icon={<IconAlertTriangle size={18} />}
          title={t('crawler.tours.reportTitle')}
          withCloseButton
          closeButtonLabel={t('moderation.outcome.dismiss')}
          onClose={() => setReport(null)}
          data-testid="crawled-report"
        >
          <Stack gap={2}>
            {report.lines.map((line) => (
              <Text size="sm" key={line.id} data-testid="crawled-outcome" data-status={line.outcome.status}>
                <b>{line.title}</b> — {line.outcome.message}
                {line.outcome.guid && (
                  <>
                    {' '}
                    <Anchor component={Link} to={paths.tour(line.outcome.guid)} size="sm">
                      {t('crawler.tours.openTour')}
                    </Anchor>
                  </>
                )}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}

      {total === 0 ? (
        <Stack align="center" ta="center" gap="sm" py="xl" data-testid="crawled-empty">
          <ThemeIcon size={56} radius="xl" variant="light" color="teal">
            <IconCircleCheck size={30} />
          </ThemeIcon>
          <Text fw={650}>{t('crawler.tours.emptyTitle')}</Text>
          <Text c="dimmed" size="sm" maw={440}>
            {t('crawler.tours.emptyText')}
          </Text>
        </Stack>
      ) : (
        <>
          <div className={classes.bulkBar} data-testid="crawled-bulk">
            <Checkbox
              className={classes.bulkSelect}
              label={chosen.length > 0 ? t('moderation.selected', { count: chosen.length }) : t('moderation.selectAll')}
              checked={allSelected}
              indeterminate={chosen.length > 0 && !allSelected}
              onChange={() => setSelected(allSelected ? new Set() : new Set(tours.map((tour) => tour.id)))}
            />
            <Group gap={6} wrap="nowrap">
              {list.isFetching && <Loader size={14} />}
              <Text size="sm" c="dimmed" data-testid="crawled-total" data-value={total}>
                {t('crawler.tours.total', { count: total })}
              </Text>
            </Group>
            <div className={classes.bulkButtons}>
              <Button size="xs" radius="xl" variant="light" color="red" leftSection={<IconX size={14} />} disabled={chosen.length === 0} loading={reject.isPending} onClick={() => rejectTours(chosen)} data-testid="crawled-bulk-reject">
                {t('moderation.rejectSelected')}
              </Button>
              <Button size="xs" radius="xl" color="teal" leftSection={<IconCheck size={14} />} disabled={chosen.length === 0} onClick={() => setApproving(chosen)} data-testid="crawled-bulk-approve">
                {t('moderation.approveSelected')}
              </Button>
            </div>
          </div>

          <Stack gap="xs" component="ul" className={classes.list} data-testid="crawled-list">
            {tours.map((tour) => (
              <CrawledRow
                key={tour.id}
                tour={tour}
                selected={selected.has(tour.id)}
                busy={reject.isPending && reject.variables.includes(tour.id)}
                onToggle={() =>
                  setSelected((current) => {
                    const next = new Set(current);
                    if (next.has(tour.id)) next.delete(tour.id);
                    else next.add(tour.id);
                    return next;
                  })
                }
                onApprove={() => setApproving([tour])}
                onReject={() => rejectTours([tour])}
              />
            ))}
          </Stack>

          {pages > 1 && (
            <Center>
              <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} radius="xl" size={mobile ? 'sm' : 'md'} aria-label={t('moderation.paging')} />
            </Center>
          )}
        </>
      )}

      <CrawledApproveDialog
        tours={approving}
        onClose={() => setApproving([])}
        onDone={(outcomes, decided) => {
          showOutcomes(outcomes, decided);
          setApproving([]);
        }}
      />
    </Stack>
  );
}

interface CrawledRowProps {
  tour: CrawledTour;
  selected: boolean;
  busy: boolean;
  onToggle: () => void;
  onApprove: () => void;
  onReject: () => void;
}

function CrawledRow({ tour, selected, busy, onToggle, onApprove, onReject }: CrawledRowProps) {
  const { t, i18n } = useTranslation();
  const title = tour.title ?? t('crawler.tours.untitled', { id: tour.id });
  const filed = new Date(tour.created_at);
  return (
    <li className={classes.tourRow} data-selected={selected || undefined} data-testid="crawled-row" data-id={tour.id}>
      <Checkbox checked={selected} onChange={onToggle} aria-label={t('moderation.select', { title })} />
      <div className={classes.thumb}>{tour.image ? <img src={tour.image} alt="" loading="lazy" /> : <IconPhoto size={22} stroke={1.4} />}</div>
      <div className={classes.tourMain}>
        <Text fw={650} size="sm" lineClamp={1} data-testid="crawled-title">
          {title}
        </Text>
        {tour.description && (
          <Text size="xs" c="dimmed" lineClamp={2}>
            {tour.description}
          </Text>
        )}
        <Anchor href={tour.link} target="_blank" rel="noopener noreferrer" size="xs" className={classes.link} lineClamp={1}>
          <IconExternalLink size={12} style={{ verticalAlign: -1 }} aria-hidden="true" /> {tour.link}
        </Anchor>
        <Group gap={8} wrap="wrap" mt={4}>
          <Badge size="sm" variant="light" radius="sm" tt="none">
            {tour.vendor_name}
          </Badge>
          <Text size="xs" c="dimmed" data-testid="crawled-source">
            {t('crawler.tours.source', { name: tour.configuration_name, id: tour.session_id })}
          </Text>
          <Text size="xs" c="dimmed" component="time" dateTime={tour.created_at} title={filed.toLocaleString(i18n.language)}>
            {filed.toLocaleDateString(i18n.language, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })}
          </Text>
          {tour.coordinate && (
            <Badge size="sm" variant="outline" color="gray" radius="sm" tt="none" leftSection={<IconMapPin size={11} />}>
              {t('crawler.tours.hasPlace')}
            </Badge>
          )}
        </Group>
      </div>
      <div className={classes.rowActions}>
        <Button size="xs" radius="xl" variant="light" color="red" leftSection={<IconX size={14} />} onClick={onReject} loading={busy} data-testid="crawled-reject">
          {t('moderation.reject')}
        </Button>
        <Button size="xs" radius="xl" color="teal" leftSection={<IconCheck size={14} />} onClick={onApprove} disabled={busy} data-testid="crawled-approve">
          {t('moderation.approve')}
        </Button>
      </div>
    </li>
  );
}
