import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Badge, Button, Group, Loader, Pagination, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowsTransferUp, IconMail, IconPlayerPlay, IconPlayerStop, IconSearch, IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useSession } from '../../../shared/auth/session';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import type { UserRoleFilter, UserStateFilter } from '../api/queryKeys';
import { type AdminUser, USERS_PAGE_SIZE, userListQueryOptions } from '../api/usersAdminApi';
import { ActiveDialog } from './ActiveDialog';
import { displayName } from './displayName';
import { ListEmpty, ListError, ListLoading } from './ListStates';
import { MessageDialog } from './MessageDialog';
import { SettingsDialog } from './SettingsDialog';
import { TransferDialog } from './TransferDialog';
import classes from './UsersAdmin.module.css';

const STATES: readonly UserStateFilter[] = ['all', 'active', 'drafted', 'blocked', 'deleted'];
const ROLES: readonly UserRoleFilter[] = ['admin', 'cm', 'creator', 'potential_creator', 'user'];
const STATE_COLORS: Record<AdminUser['state'], string> = { active: 'teal', drafted: 'orange', blocked: 'red', deleted: 'gray' };

type Open = { kind: 'active' | 'settings' | 'message' | 'transfer'; user: AdminUser } | null;

/** Spec §2 "user moderation": accounts by platform username, with their state, role and actions. */
export function UsersTab() {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState('');
  const { debounced: search, waiting, flushTo } = useDebouncedValue(text.trim(), 400);
  const [state, setState] = useState<UserStateFilter>('all');
  const [role, setRole] = useState<UserRoleFilter | null>(null);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Open>(null);
  const [searched, setSearched] = useState(search);
  // A new search, status or role starts again at the first page.
  if (searched !== search) {
    setSearched(search);
    setPage(1);
  }
  const list = useQuery(userListQueryOptions({ search, state, role, offset: (page - 1) * USERS_PAGE_SIZE }));
  const total = list.data?.total_items ?? 0;
  const pages = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
  const me = Number(useSession().claims?.sub ?? NaN);
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });

  let body;
  if (list.isPending) body = <ListLoading testId="users-loading" />;
  else if (list.isError) body = <ListError error={list.error} onRetry={() => void list.refetch()} testId="users-error" />;
  else if (list.data.data.length === 0) body = <ListEmpty text={t('usersAdmin.users.empty')} testId="users-empty" />;
  else
    body = (
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-busy={list.isFetching}>
        {list.data.data.map((user) => (
          <li key={user.userid}>
            <UserRow user={user} self={user.userid === me} joined={date.format(new Date(user.created_at))} onOpen={(kind) => setOpen({ kind, user })} />
          </li>
        ))}
      </Stack>
    );

  return (
    <Stack gap="md">
      <div className={classes.toolbar}>
        <TextInput
          className={classes.toolbarSearch}
          label={t('usersAdmin.users.search')}
          placeholder={t('usersAdmin.users.searchPlaceholder')}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') flushTo(text.trim());
          }}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          rightSection={waiting || (list.isFetching && !list.isPending) ? <Loader size={14} /> : null}
          data-testid="users-search"
          type="search"
        />
        <Select
          label={t('usersAdmin.users.state')}
          data={STATES.map((value) => ({ value, label: t(`usersAdmin.users.states.${value}`) }))}
          value={state}
          onChange={(value) => {
            setState((value as UserStateFilter | null) ?? 'all');
            setPage(1);
          }}
          allowDeselect={false}
          data-testid="users-state"
        />
        <Select
          label={t('usersAdmin.users.role')}
          data={[{ value: '', label: t('usersAdmin.users.roles.any') }, ...ROLES.map((value) => ({ value, label: t(`usersAdmin.users.roles.${value}`) }))]}
          value={role ?? ''}
          onChange={(value) => {
            setRole(value ? (value as UserRoleFilter) : null);
            setPage(1);
          }}
          allowDeselect={false}
          data-testid="users-role"
        />
      </div>
      {list.data && (
        <Text size="sm" c="dimmed" data-testid="users-total">
          {t('usersAdmin.users.total', { count: total })}
        </Text>
      )}
      {body}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={page} onChange={setPage} aria-label={t('usersAdmin.users.pages')} />
        </Group>
      )}
      {open?.kind === 'active' && <ActiveDialog user={open.user} onClose={() => setOpen(null)} />}
      {open?.kind === 'settings' && <SettingsDialog user={open.user} self={open.user.userid === me} onClose={() => setOpen(null)} />}
      {open?.kind === 'message' && <MessageDialog user={open.user} onClose={() => setOpen(null)} />}
      {open?.kind === 'transfer' && <TransferDialog user={open.user} onClose={() => setOpen(null)} />}
    </Stack>
  );
}

function roleBadges(user: AdminUser): UserRoleFilter[] {
  const roles: UserRoleFilter[] = [];
  if (user.is_admin) roles.push('admin');
  if (user.roles.includes('CM')) roles.push('cm');
  if (user.creatorId !== null) roles.push('creator');
  else if (user.potential_creator) roles.push('potential_creator');
  if (roles.length === 0) roles.push('user');
  return roles;
}

function UserRow({ user, self, joined, onOpen }: { user: AdminUser; self: boolean; joined: string; onOpen: (kind: NonNullable<Open>['kind']) => void }) {
  const { t } = useTranslation();
  const name = displayName(user);
  const drafted = !user.is_active;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="user-row" data-userid={user.userid} data-state={user.state} aria-label={name}>
      <div className={classes.row}>
        <Stack gap={4} miw={0}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} className={classes.name}>
              {user.platform_username ?? <Text span c="dimmed" fs="italic">{t('usersAdmin.users.noUsername')}</Text>}
            </Text>
            {self && (
              <Badge variant="outline" size="sm">
                {t('usersAdmin.users.you')}
              </Badge>
            )}
            <Badge color={STATE_COLORS[user.state]} variant="light" size="sm" data-testid="user-state">
              {t(`usersAdmin.users.states.${user.state}`)}
            </Badge>
            {roleBadges(user).map((role) => (
              <Badge key={role} color={role === 'admin' ? 'grape' : role === 'creator' ? 'brand' : 'gray'} variant="outline" size="sm">
                {t(`usersAdmin.users.roles.${role}`)}
              </Badge>
            ))}
            {user.trusted && (
              <Badge color="teal" variant="outline" size="sm">
                {t('usersAdmin.settings.trusted')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed" className={classes.name}>
            {[user.username, user.email].filter(Boolean).join(' · ')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('usersAdmin.users.tours', { count: user.tours_count })} · {t('usersAdmin.users.joined', { date: joined })}
          </Text>
        </Stack>
        <Group gap={6} wrap="wrap" role="group" aria-label={t('usersAdmin.users.actionsFor', { name })}>
          {/* A deleted account's tours can still find a new home; nothing else applies to it. */}
          {!user.is_deleted && (
            <Button
              size="xs"
              variant="light"
              color={drafted ? 'teal' : 'red'}
              leftSection={drafted ? <IconPlayerPlay size={14} aria-hidden="true" /> : <IconPlayerStop size={14} aria-hidden="true" />}
              onClick={() => onOpen('active')}
              disabled={self && !drafted}
              data-testid={drafted ? 'user-activate' : 'user-deactivate'}
            >
              {drafted ? t('usersAdmin.users.activate') : t('usersAdmin.users.deactivate')}
            </Button>
          )}
          {!user.is_deleted && (
            <Button size="xs" variant="default" leftSection={<IconSettings size={14} aria-hidden="true" />} onClick={() => onOpen('settings')} data-testid="user-settings">
              {t('usersAdmin.users.settings')}
            </Button>
          )}
          {!user.is_deleted && (
            <Button size="xs" variant="default" leftSection={<IconMail size={14} aria-hidden="true" />} onClick={() => onOpen('message')} data-testid="user-message">
              {t('usersAdmin.users.message')}
            </Button>
          )}
          <Button
              size="xs"
              variant="default"
              leftSection={<IconArrowsTransferUp size={14} aria-hidden="true" />}
              onClick={() => onOpen('transfer')}
              disabled={user.tours_count === 0}
              data-testid="user-transfer"
            >
              {t('usersAdmin.users.transfer')}
            </Button>
        </Group>
      </div>
    </Paper>
  );
}
