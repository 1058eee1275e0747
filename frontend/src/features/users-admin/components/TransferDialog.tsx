import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Badge, Button, Checkbox, Group, Loader, Modal, Radio, Select, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import type { UserSearchItem, VtTransferAnswer } from '../../../shared/api/generated/types.gen';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { accountSearchQueryOptions, type AdminUser, ownedToursQueryOptions, TRANSFER_TOURS_LIMIT, useTransferTours } from '../api/usersAdminApi';
import { transferTours, type TransferErrors, validateTransfer } from '../model/forms';
import { displayName } from './displayName';
import { ListError } from './ListStates';
import classes from './UsersAdmin.module.css';

type Step = 'form' | 'confirm' | 'done';

/** Spec §2 "tour transfer": move one account's tours (all, or the chosen ones) to another account. */
export function TransferDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation();
  const from = displayName(user);
  const [step, setStep] = useState<Step>('form');
  const [searchText, setSearchText] = useState('');
  const { debounced: pattern } = useDebouncedValue(searchText.trim(), 300);
  const candidates = useQuery(accountSearchQueryOptions(pattern));
  const [target, setTarget] = useState<UserSearchItem | null>(null);
  const [mode, setMode] = useState<'all' | 'chosen'>('all');
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const [errors, setErrors] = useState<TransferErrors>({});
  const [answer, setAnswer] = useState<VtTransferAnswer | null>(null);
  const tours = useQuery(ownedToursQueryOptions(user.userid));
  const transfer = useTransferTours();
  const tourCount = tours.data?.total_items ?? user.tours_count;

  // Keep the chosen account among the options while the list shows another search's answers.
  const options = [...(candidates.data ?? [])];
  if (target && !options.some((item) => item.userid === target.userid)) options.unshift(target);
  const label = (item: UserSearchItem) => `${item.platform_username ?? item.username} · ${item.email}`;

  const review = () => {
    const found = validateTransfer({ sourceId: user.userid, target, mode, chosen, tourCount });
    setErrors(found);
    if (!found.target && !found.tours) setStep('confirm');
  };
  const run = () => {
    if (!target) return;
    transfer.mutate(
      { from_userid: user.userid, to_userid: target.userid, tours: transferTours({ mode, chosen }) },
      {
        onSuccess: (result) => {
          setAnswer(result);
          setStep('done');
        },
      },
    );
  };
  const moving = mode === 'all' ? tourCount : chosen.length;
  const to = target ? (target.platform_username ?? target.username) : '';

  return (
    <Modal opened onClose={onClose} title={t('usersAdmin.transfer.title', { name: from })} centered radius="lg" size="lg" attributes={{ content: { 'data-testid': 'transfer-dialog' } }}>
      {step === 'form' && (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('usersAdmin.transfer.intro')}
          </Text>
          <Select
            label={t('usersAdmin.transfer.target')}
            placeholder={t('usersAdmin.transfer.targetPlaceholder')}
            searchable
            clearable
            data={options.map((item) => ({ value: String(item.userid), label: label(item) }))}
            // The server has searched already: every answer is shown.
            filter={({ options: all }) => all}
            value={target ? String(target.userid) : null}
            searchValue={searchText}
            onSearchChange={setSearchText}
            onChange={(value) => {
              setTarget(options.find((item) => String(item.userid) === value) ?? null);
              setErrors((current) => ({ ...current, target: undefined }));
            }}
            nothingFoundMessage={pattern && !candidates.isFetching ? t('usersAdmin.transfer.targetNothing') : undefined}
            rightSection={candidates.isFetching ? <Loader size={14} /> : undefined}
            error={errors.target === 'required' ? t('usersAdmin.transfer.targetRequired') : errors.target === 'same' ? t('usersAdmin.transfer.targetSame') : undefined}
            required
            data-testid="transfer-target"
          />
          <Radio.Group
            label={t('usersAdmin.transfer.which')}
            value={mode}
            onChange={(value) => {
              setMode(value === 'chosen' ? 'chosen' : 'all');
              setErrors((current) => ({ ...current, tours: undefined }));
            }}
            error={errors.tours === 'none' ? t('usersAdmin.transfer.toursNone') : errors.tours === 'empty' ? t('usersAdmin.transfer.toursEmpty') : undefined}
          >
            <Group gap="lg" mt={6}>
              <Radio value="all" label={t('usersAdmin.transfer.all', { count: tourCount })} data-testid="transfer-all" />
              <Radio value="chosen" label={t('usersAdmin.transfer.chosen')} data-testid="transfer-chosen" />
            </Group>
          </Radio.Group>
          {mode === 'chosen' &&
            (tours.isPending ? (
              <Skeleton height={120} radius="md" />
            ) : tours.isError ? (
              <ListError error={tours.error} onRetry={() => void tours.refetch()} testId="transfer-tours-error" />
            ) : (
              <Stack gap={6}>
                <Text size="xs" c="dimmed">
                  {t('usersAdmin.transfer.chosenCount', { count: chosen.length })}
                </Text>
                <Checkbox.Group value={[...chosen]} onChange={(value) => setChosen(value)}>
                  <Stack gap={8} className={classes.tourList} data-testid="transfer-tours">
                    {tours.data.data.map((tour) => (
                      <Checkbox
                        key={tour.guid}
                        value={tour.guid}
                        aria-label={t('usersAdmin.transfer.chooseTour', { title: tour.title })}
                        label={
                          <Group gap={6} wrap="wrap">
                            <Text size="sm">{tour.title}</Text>
                            <Badge size="xs" variant="light" color={tour.status === 'active' ? 'teal' : 'gray'}>
                              {t(`usersAdmin.transfer.status.${tour.status}`)}
                            </Badge>
                          </Group>
                        }
                      />
                    ))}
                  </Stack>
                </Checkbox.Group>
                {tours.data.total_items > TRANSFER_TOURS_LIMIT && (
                  <Text size="xs" c="dimmed">
                    {t('usersAdmin.transfer.more', { count: TRANSFER_TOURS_LIMIT })}
                  </Text>
                )}
              </Stack>
            ))}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button onClick={review} data-testid="transfer-review">
              {t('usersAdmin.transfer.review')}
            </Button>
          </Group>
        </Stack>
      )}
      {step === 'confirm' && (
        <Stack gap="md" data-testid="transfer-confirm-step">
          <Text fw={600}>{t('usersAdmin.transfer.confirmTitle')}</Text>
          <Text size="sm">{t('usersAdmin.transfer.confirmText', { count: moving, from, to })}</Text>
          {transfer.isError && (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('usersAdmin.transfer.failed')} data-testid="transfer-error">
              {errorMessage(transfer.error, t('page.errorText'))}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setStep('form')} disabled={transfer.isPending}>
              {t('usersAdmin.transfer.back')}
            </Button>
            <Button onClick={run} loading={transfer.isPending} data-testid="transfer-confirm">
              {t('usersAdmin.transfer.confirm')}
            </Button>
          </Group>
        </Stack>
      )}
      {step === 'done' && answer && (
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} data-testid="transfer-result" data-transferred={answer.data.transferred}>
            {answer.message}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose} data-autofocus>
              {t('usersAdmin.transfer.done')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
