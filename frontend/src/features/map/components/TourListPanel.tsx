import { CloseButton, Group, Loader, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import type { KeyboardEvent, ReactNode } from 'react';
import { Link } from 'react-router';

import { paths } from '../../../shared/routing/paths';
import classes from './TourListPanel.module.css';

/** One tour of a list beside the map: a link to its page. */
export interface TourListRow {
  guid: string;
  title: string;
  picture: string | null;
  /** The second line (creator, views, age). */
  detail: string;
}

interface TourListPanelProps {
  id?: string;
  /** The region's accessible name. */
  label: string;
  /** The visible heading (a count, or what is being loaded). */
  title: string;
  loading: boolean;
  rows: readonly TourListRow[];
  closeLabel: string;
  onClose: () => void;
  /** Shown when there is nothing to list. */
  empty?: ReactNode;
  /** Below the rows (e.g. "Show more"). */
  footer?: ReactNode;
  testId: string;
  rowTestId: string;
}

/**
 * A panel of tours over the map (spec §2 list view): beside it on a wide screen, a sheet over its lower
 * part on a phone. Every row is a link, so the tours are reachable with the keyboard; Escape closes it.
 */
export function TourListPanel({ id, label, title, loading, rows, closeLabel, onClose, empty, footer, testId, rowTestId }: TourListPanelProps) {
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };
  return (
    <section id={id} className={classes.panel} aria-label={label} data-testid={testId} onKeyDown={closeOnEscape}>
      <Group justify="space-between" wrap="nowrap" className={classes.header}>
        <Text component="h2" fw={700} size="md" aria-live="polite">
          {title}
        </Text>
        <CloseButton aria-label={closeLabel} onClick={onClose} />
      </Group>
      {loading ? (
        <Group justify="center" p="lg">
          <Loader size="sm" />
        </Group>
      ) : (
        <ScrollArea.Autosize mah="100%" type="auto" className={classes.scroll}>
          {rows.length === 0 && empty ? (
            <Text size="sm" p="md">
              {empty}
            </Text>
          ) : (
            <ul className={classes.list}>
              {rows.map((row) => (
                <li key={row.guid}>
                  <UnstyledButton component={Link} to={paths.tour(row.guid)} className={classes.row} data-testid={rowTestId}>
                    <span className={classes.thumb}>
                      {row.picture ? (
                        <img src={row.picture} alt="" loading="lazy" decoding="async" />
                      ) : (
                        <IconPhoto size={20} stroke={1.4} aria-hidden="true" />
                      )}
                    </span>
                    <span className={classes.text}>
                      <Text size="sm" fw={600} lineClamp={2}>
                        {row.title}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {row.detail}
                      </Text>
                    </span>
                  </UnstyledButton>
                </li>
              ))}
            </ul>
          )}
          {footer}
        </ScrollArea.Autosize>
      )}
    </section>
  );
}
