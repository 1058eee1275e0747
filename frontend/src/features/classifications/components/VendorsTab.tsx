import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Anchor, Badge, Button, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { VendorAdminOut } from '../../../shared/api/generated/types.gen';
import { paths } from '../../../shared/routing/paths';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { changeVendorStatus, type VendorStatus, vendorStatuses, vendorsQueryOptions } from '../api/classificationsApi';
import { vendorsPrefix } from '../api/queryKeys';
import { useActiveToggle } from '../api/useListState';
import classes from './Classifications.module.css';
import { ListBody, ListProblem, ListToolbar } from './ListParts';
import { type Column, ResponsiveTable } from './ResponsiveTable';

const STATUS_COLORS: Record<string, string> = { approved: 'teal', pending: 'yellow', rejected: 'red', inactive: 'gray' };

/** The hosts (spec §3 Vendor): withdraw one from the Add media form, or offer it again. */
export function VendorsTab() {
  const { t } = useTranslation();
  const [searchText, setSearchText] = useState('');
  const [status, setStatus] = useState<VendorStatus>('all');
  const [page, setPage] = useState(1);
  const { debounced: search } = useDebouncedValue(searchText.trim(), 300);
  const query = useQuery(vendorsQueryOptions({ search, status, page }));
  const toggle = useActiveToggle<VendorAdminOut>(
    (row, active) => changeVendorStatus(row.vendor_id, active ? 'approved' : 'inactive'),
    (row) => row.vendor_name,
    vendorsPrefix,
    (active, name) => t(active ? 'classifications.vendors.offered' : 'classifications.vendors.withdrawn', { name }),
  );
  const columns: Column<VendorAdminOut>[] = [
    { key: 'name', label: t('classifications.columns.name'), primary: true, render: (row) => row.vendor_name },
    { key: 'kind', label: t('classifications.columns.kind'), render: (row) => (row.is_custom ? t('classifications.vendors.custom') : t('classifications.vendors.public')) },
    {
      key: 'status',
      label: t('classifications.columns.status'),
      render: (row) => (
        <Badge variant="light" radius="sm" color={STATUS_COLORS[row.status] ?? 'gray'} data-testid="vendor-status">
          {isVendorStatus(row.status) ? t(`classifications.vendors.statuses.${row.status}`) : row.status}
        </Badge>
      ),
    },
    { key: 'owner', label: t('classifications.columns.owner'), render: (row) => (row.platform_username ? `@${row.platform_username}` : '—') },
    { key: 'tours', label: t('classifications.columns.tours'), numeric: true, render: (row) => row.tours },
    {
      key: 'actions',
      label: t('classifications.columns.actions'),
      render: (row) => {
        if (row.status !== 'approved' && row.status !== 'inactive') {
          return (
            <Anchor component={Link} to={paths.moderation} size="sm">
              {t('classifications.vendors.decidedInModeration')}
            </Anchor>
          );
        }
        const offered = row.status === 'approved';
        return (
          <Button
            size="xs"
            variant={offered ? 'default' : 'light'}
            color={offered ? 'red' : 'teal'}
            aria-busy={toggle.busyId === row.vendor_id}
            aria-label={t(offered ? 'classifications.vendors.withdrawNamed' : 'classifications.vendors.offerNamed', { name: row.vendor_name })}
            onClick={() => {
              if (toggle.busyId === null) toggle.toggle(row, row.vendor_id, !offered);
            }}
            data-testid="vendor-toggle"
          >
            {offered ? t('classifications.vendors.withdraw') : t('classifications.vendors.offer')}
          </Button>
        );
      },
    },
  ];
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('classifications.vendors.intro')}
      </Text>
      <ListToolbar
        search={searchText}
        onSearch={(text) => {
          setSearchText(text);
          setPage(1);
        }}
        testId="vendors"
      >
        <Select
          className={classes.filter}
          label={t('classifications.list.status')}
          value={status}
          onChange={(value) => {
            setStatus(isVendorStatus(value) ? value : 'all');
            setPage(1);
          }}
          allowDeselect={false}
          data={vendorStatuses.map((value) => ({ value, label: t(`classifications.vendors.statuses.${value}`) }))}
          data-testid="vendors-status"
        />
      </ListToolbar>
      <ListProblem message={toggle.problem} onClose={toggle.clearProblem} testId="vendors" />
      <ListBody
        loading={query.isPending}
        error={query.error}
        onRetry={() => void query.refetch()}
        total={query.data?.total_items ?? 0}
        searching={search !== '' || status !== 'all'}
        page={page}
        onPage={setPage}
        testId="vendors"
      >
        <ResponsiveTable rows={query.data?.data ?? []} columns={columns} rowKey={(row) => row.vendor_id} caption={t('classifications.tabs.vendors')} testId="vendor-row" />
      </ListBody>
    </Stack>
  );
}

function isVendorStatus(value: string | null): value is VendorStatus {
  return vendorStatuses.includes(value as VendorStatus);
}
