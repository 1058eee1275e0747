import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { ActionIcon, Alert, Badge, Button, Checkbox, Code, Group, Modal, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconServer2, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { HostRequestOut } from '../../../shared/api/generated/types.gen';
import { useSession } from '../../../shared/auth/session';
import { vendorsQueryOptions } from '../../../shared/dictionaries/queries';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { closeHostRequestDialog, useHostRequestDialog } from '../../../shared/vendors/hostRequestDialog';
import { vendorQueryKeys } from '../../../shared/vendors/vendorQueryKeys';
import { deleteHost, type HostRequestOutcome, ownHostsQueryOptions, requestHost } from '../api/hostRequests';
import {
  EMPTY_HOST_REQUEST,
  fillHost,
  HEADING_MAX,
  hostProblem,
  type HostRequestValues,
  NAME_MAX,
  normaliseHost,
  SAMPLE_MAX,
  validateHostRequest,
} from '../model/hostRequest';

/**
 * Spec §2 "custom provider request" (§3 Custom provider): a creator asks for a host of their own
 * (name, host, link heading and sample tour written with {host}, optionally an alternative version of
 * a listed host), and sees every host they asked for with its status, and deletes one. Requests wait
 * for an administrator, who is mailed; the media form offers a custom host at once.
 */
export function HostRequestModal() {
  const { t } = useTranslation();
  const { opened } = useHostRequestDialog();
  const session = useSession();
  const mobile = useIsMobile();
  const canRequest = session.role === 'creator' || session.role === 'admin';
  return (
    <Modal
      opened={opened && session.signedIn}
      onClose={closeHostRequestDialog}
      title={t('vendors.request.title')}
      size="lg"
      radius={mobile ? 0 : 'lg'}
      fullScreen={mobile}
      centered
      zIndex={350}
      data-testid="host-request-modal"
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {canRequest ? (
        <Stack gap="xl">
          <HostRequestForm />
          <OwnHosts />
        </Stack>
      ) : (
        <Alert color="gray" variant="light" radius="md" data-testid="host-request-creators-only">
          {t('vendors.request.creatorsOnly')}
        </Alert>
      )}
    </Modal>
  );
}

function HostRequestForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const vendors = useQuery(vendorsQueryOptions());
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<HostRequestValues>({
    mode: 'controlled',
    initialValues: EMPTY_HOST_REQUEST,
    validate: (values) => {
      const errors = validateHostRequest(values);
      const max = { vendor_name: NAME_MAX, alternate_version_name: NAME_MAX, link_header: HEADING_MAX, sample_tour: SAMPLE_MAX };
      return Object.fromEntries(
        Object.entries(errors).map(([field, key]) => [field, t(key, { max: max[field as keyof typeof max] ?? NAME_MAX, host: '{host}' })]),
      );
    },
  });
  const send = useMutation({
    mutationFn: requestHost,
    onMutate: () => setProblem(null),
    onSuccess: (outcome: HostRequestOutcome) => {
      if (outcome.kind === 'filed') {
        void queryClient.invalidateQueries({ queryKey: vendorQueryKeys.all });
        notifications.show({
          color: 'teal',
          title: outcome.host.vendor_name,
          message: outcome.pending ? t('vendors.request.sent') : t('vendors.request.created'),
        });
        form.reset();
        return;
      }
      if (outcome.kind === 'refused') {
        form.setErrors(outcome.fields);
        // A message its field already shows is not repeated above the form.
        if (outcome.message && Object.values(outcome.fields).includes(outcome.message)) return;
      }
      setProblem(outcome.message ?? t('vendors.request.failed'));
    },
    onError: () => setProblem(t('vendors.request.failed')),
  });

  const host = normaliseHost(form.values.host);
  const hostValid = hostProblem(host) === null;
  const parents = (vendors.data ?? []).map((vendor) => ({ value: String(vendor.vendor_id), label: vendor.vendor_name }));

  return (
    <form onSubmit={form.onSubmit((values) => send.mutate(values))} noValidate data-testid="host-request-form">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('vendors.request.intro')}
        </Text>
        {problem && (
          <Alert color="red" variant="light" radius="md" role="alert" icon={<IconAlertTriangle size={18} />} data-testid="host-request-error">
            {problem}
          </Alert>
        )}
        <TextInput
          label={t('vendors.request.name')}
          description={t('vendors.request.nameHint')}
          withAsterisk
          maxLength={NAME_MAX}
          data-testid="host-request-name"
          {...form.getInputProps('vendor_name')}
        />
        <TextInput
          label={t('vendors.request.host')}
          description={t('vendors.request.hostHint')}
          placeholder="tours.studio.example"
          withAsterisk
          autoComplete="off"
          spellCheck={false}
          maxLength={300}
          data-testid="host-request-host"
          {...form.getInputProps('host')}
        />
        <TextInput
          label={t('vendors.request.linkHeader')}
          description={t('vendors.request.linkHeaderHint')}
          placeholder="https://{host}/tours/"
          withAsterisk
          spellCheck={false}
          maxLength={HEADING_MAX}
          data-testid="host-request-link-header"
          {...form.getInputProps('link_header')}
        />
        <TextInput
          label={t('vendors.request.sampleTour')}
          description={t('vendors.request.sampleTourHint')}
          placeholder="https://{host}/tours/lobby"
          withAsterisk
          spellCheck={false}
          maxLength={SAMPLE_MAX}
          data-testid="host-request-sample"
          {...form.getInputProps('sample_tour')}
        />
        {hostValid && form.values.sample_tour.includes('{host}') && (
          <Text size="xs" c="dimmed" data-testid="host-request-preview" style={{ overflowWrap: 'anywhere' }}>
            {t('vendors.request.preview')} <Code>{fillHost(form.values.sample_tour, host)}</Code>
          </Text>
        )}
        <Checkbox
          label={t('vendors.request.alternative')}
          description={t('vendors.request.alternativeHint')}
          {...form.getInputProps('alternative', { type: 'checkbox' })}
        />
        {form.values.alternative && (
          <Group grow align="flex-start" wrap="wrap">
            <Select
              label={t('vendors.request.parent')}
              placeholder={t('vendors.request.parentPlaceholder')}
              data={parents}
              searchable
              withAsterisk
              miw={180}
              comboboxProps={{ withinPortal: true, zIndex: 400 }}
              {...form.getInputProps('parent_vendor_id')}
            />
            <TextInput
              label={t('vendors.request.alternateName')}
              placeholder={t('vendors.request.alternateNamePlaceholder')}
              maxLength={NAME_MAX}
              miw={180}
              {...form.getInputProps('alternate_version_name')}
            />
          </Group>
        )}
        <Group justify="flex-end" mt="xs">
          <Button type="submit" radius="xl" loading={send.isPending} data-testid="host-request-submit">
            {t('vendors.request.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const STATUS_COLORS: Record<HostRequestOut['status'], string> = {
  pending: 'yellow',
  approved: 'teal',
  rejected: 'red',
  inactive: 'gray',
};

function OwnHosts() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const own = useQuery(ownHostsQueryOptions());
  const remove = useMutation({
    mutationFn: (vendorId: number) => deleteHost(vendorId),
    onSuccess: (result) => {
      if (result.ok) {
        void queryClient.invalidateQueries({ queryKey: vendorQueryKeys.all });
        notifications.show({ color: 'teal', message: t('vendors.own.deleted') });
      } else {
        notifications.show({ color: 'red', message: result.message ?? t('vendors.own.deleteFailed') });
      }
    },
    onError: () => notifications.show({ color: 'red', message: t('vendors.own.deleteFailed') }),
  });
  const confirm = (host: HostRequestOut) =>
    modals.openConfirmModal({
      title: t('vendors.own.deleteTitle', { name: host.vendor_name }),
      children: <Text size="sm">{t(host.status === 'pending' ? 'vendors.own.withdrawQuestion' : 'vendors.own.deleteQuestion', { name: host.vendor_name })}</Text>,
      centered: true,
      radius: 'lg',
      zIndex: 400,
      labels: { confirm: t('vendors.own.deleteConfirm'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete-host' },
      onConfirm: () => host.vendor_id !== null && remove.mutate(host.vendor_id),
    });

  return (
    <Stack gap="xs" data-testid="own-hosts">
      <Title order={3} size="h5">
        {t('vendors.own.title')}
      </Title>
      {own.isPending && <Skeleton height={56} radius="md" />}
      {own.isError && (
        <Alert color="red" variant="light" radius="md" role="alert">
          <Group justify="space-between" gap="xs">
            {t('vendors.own.loadFailed')}
            <Button size="xs" variant="white" color="red" onClick={() => void own.refetch()}>
              {t('common.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      {own.data?.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="own-hosts-empty">
          {t('vendors.own.empty')}
        </Text>
      )}
      {own.data && own.data.length > 0 && (
        <Stack gap={0} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {own.data.map((host) => (
            <Group
              key={`${host.vendor_id ?? 'gone'}-${host.created_at}`}
              component="li"
              justify="space-between"
              wrap="nowrap"
              gap="sm"
              py="xs"
              style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
              data-testid="own-host"
            >
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <IconServer2 size={20} aria-hidden="true" style={{ flexShrink: 0 }} />
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate>
                    {host.vendor_name}
                    {host.alternate_version_name ? ` · ${host.alternate_version_name}` : ''}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {host.host ?? '—'} · {t('vendors.own.tours', { count: host.tours })}
                  </Text>
                </Stack>
              </Group>
              <Group gap="xs" wrap="nowrap">
                <Badge color={STATUS_COLORS[host.status]} variant="light" data-testid="own-host-status">
                  {t(`vendors.status.${host.status}`)}
                </Badge>
                {host.vendor_id !== null && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    radius="xl"
                    aria-label={t('vendors.own.delete', { name: host.vendor_name })}
                    onClick={() => confirm(host)}
                    loading={remove.isPending && remove.variables === host.vendor_id}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                )}
              </Group>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
