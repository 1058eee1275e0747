import { Group, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

import { useIsMobile } from '../../../shared/layout/breakpoints';
import classes from './Classifications.module.css';

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  /** The row's heading on a phone (one column per table). */
  primary?: boolean;
  /** Right-aligned figures. */
  numeric?: boolean;
  /** On a phone: beside the card's heading, without its label (a row's edit button). */
  inHeading?: boolean;
}

interface ResponsiveTableProps<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string | number;
  caption: string;
  /** A row's class and data attributes (the batch report marks its bad rows). */
  rowProps?: (row: T) => { className?: string; 'data-status'?: string };
  /** Each row's test id. */
  testId: string;
  minWidth?: number;
}

/**
 * A list as a table on a wide screen (scrolling sideways if it must), and as stacked cards on a
 * phone: the primary column as the card's heading, every other column as a label and its value.
 */
export function ResponsiveTable<T>({ rows, columns, rowKey, caption, rowProps, testId, minWidth = 720 }: ResponsiveTableProps<T>) {
  const mobile = useIsMobile();
  const primary = columns.find((column) => column.primary) ?? columns[0];
  const headingColumns = columns.filter((column) => column.inHeading && column !== primary);
  if (mobile) {
    return (
      <ul className={classes.cards} aria-label={caption}>
        {rows.map((row) => {
          const extra = rowProps?.(row);
          return (
            <li key={rowKey(row)} className={[classes.card, extra?.className].filter(Boolean).join(' ')} data-status={extra?.['data-status']} data-testid={testId}>
              <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                {primary && (
                  <Text fw={700} className={classes.nameCell} component="div">
                    {primary.render(row)}
                  </Text>
                )}
                {headingColumns.map((column) => (
                  <div key={column.key}>{column.render(row)}</div>
                ))}
              </Group>
              <dl className={classes.cardFields}>
                {columns
                  .filter((column) => column !== primary && !column.inHeading)
                  .map((column) => (
                    <div key={column.key} style={{ display: 'contents' }}>
                      <dt>{column.label}</dt>
                      <dd>{column.render(row)}</dd>
                    </div>
                  ))}
              </dl>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table className={classes.table} aria-label={caption} highlightOnHover verticalSpacing="sm" horizontalSpacing="md">
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} style={column.numeric ? { textAlign: 'right' } : undefined} scope="col">
                {column.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const extra = rowProps?.(row);
            return (
              <Table.Tr key={rowKey(row)} className={extra?.className} data-status={extra?.['data-status']} data-testid={testId}>
                {columns.map((column) => (
                  <Table.Td key={column.key} className={column.primary ? classes.nameCell : classes.textCell} style={column.numeric ? { textAlign: 'right' } : undefined}>
                    {column.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
