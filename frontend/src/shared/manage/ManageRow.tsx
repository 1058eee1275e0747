import { ActionIcon, Checkbox, Group, Menu } from '@mantine/core';
import { IconArchive, IconCheck, IconDots, IconPhoto, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

import classes from './ManageList.module.css';

/** The actions every manage row offers, one row or the selection at a time. */
export type ManageRowAction = 'deactivate' | 'activate' | 'approve' | 'delete';

interface ManageRowProps {
  selected: boolean;
  onToggle: () => void;
  selectLabel: string;
  picture: string | null;
  /** The row's test id and data attributes (the row's key). */
  rowData: Readonly<Record<`data-${string}`, string | number>>;
  /** The title, the state badges and the line under them. */
  children: ReactNode;
  /** The counters, hidden on a phone. */
  stats: ReactNode;
  actions: ReactNode;
}

/** One row of a manage dashboard: select, its picture, what it is, its counters, its actions. */
export function ManageRow({ selected, onToggle, selectLabel, picture, rowData, children, stats, actions }: ManageRowProps) {
  return (
    <li className={classes.row} data-selected={selected || undefined} {...rowData}>
      <Checkbox checked={selected} onChange={onToggle} aria-label={selectLabel} />
      <div className={classes.thumb}>{picture ? <img src={picture} alt="" loading="lazy" /> : <IconPhoto size={22} stroke={1.4} />}</div>
      <div className={classes.rowMain}>{children}</div>
      <Group gap={12} wrap="nowrap" className={classes.rowStats}>
        {stats}
      </Group>
      <Group gap={4} wrap="nowrap">
        {actions}
      </Group>
    </li>
  );
}

export interface RowMenuTexts {
  menu: string;
  toDrafts: string;
  activate: string;
  approve: string;
  delete: string;
}

interface RowMenuProps {
  /** Published: offers "to drafts"; otherwise "activate". */
  active: boolean;
  canApprove: boolean;
  onAction: (action: ManageRowAction) => void;
  /** The first item, opening the row's tour or link. */
  openItem: ReactNode;
  /** Items of the row's own kind, after publish / to drafts (a tour's visibility). */
  moreItems?: ReactNode;
  texts: RowMenuTexts;
  testId?: string;
}

/** A row's "…" menu: open, to drafts or activate, approve (admins), delete. */
export function RowMenu({ active, canApprove, onAction, openItem, moreItems, texts, testId }: RowMenuProps) {
  return (
    <Menu position="bottom-end" withinPortal zIndex={400}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={texts.menu} data-testid={testId}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {openItem}
        {active ? (
          <Menu.Item leftSection={<IconArchive size={14} />} onClick={() => onAction('deactivate')}>
            {texts.toDrafts}
          </Menu.Item>
        ) : (
          <Menu.Item leftSection={<IconPlayerPlay size={14} />} onClick={() => onAction('activate')}>
            {texts.activate}
          </Menu.Item>
        )}
        {moreItems}
        {canApprove && (
          <Menu.Item leftSection={<IconCheck size={14} />} color="teal" onClick={() => onAction('approve')}>
            {texts.approve}
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item leftSection={<IconTrash size={14} />} color="red" onClick={() => onAction('delete')}>
          {texts.delete}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
