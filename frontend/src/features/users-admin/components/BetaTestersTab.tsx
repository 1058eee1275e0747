import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Group, Loader, Pagination, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { BetaTesterOut } from '../../../shared/api/generated/types.gen';
import { BETA_QUESTIONS, type BetaQuestion, type CreatesTours, type TourCount } from '../../../shared/users/betaQuestions';
import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import { BETA_PAGE_SIZE, betaTestersQueryOptions } from '../api/usersAdminApi';
import { ListEmpty, ListError, ListLoading } from './ListStates';
import classes from './UsersAdmin.module.css';

/** The beta testers (GET /v2/users/get-beta-testers) with their questionnaire answers. */
export function BetaTestersTab() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const { debounced: search, waiting } = useDebouncedValue(text.trim(), 400);
  const [page, setPage] = useState(1);
  const [searched, setSearched] = useState(search);
  if (searched !== search) {
    setSearched(search);
    setPage(1);
  }
  const list = useQuery(betaTestersQueryOptions(search, (page - 1) * BETA_PAGE_SIZE));
  const total = list.data?.total_items ?? 0;
  const pages = Math.max(1, Math.ceil(total / BETA_PAGE_SIZE));

  let body;
  if (list.isPending) body = <ListLoading testId="beta-loading" />;
  else if (list.isError) body = <ListError error={list.error} onRetry={() => void list.refetch()} testId="beta-error" />;
  else if (list.data.data.length === 0) body = <ListEmpty text={search ? t('usersAdmin.beta.noMatch') : t('usersAdmin.beta.empty')} testId="beta-empty" />;
  else
    body = (
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {list.data.data.map((tester) => (
          <li key={tester.id}>
            <BetaTester tester={tester} />
          </li>
        ))}
      </Stack>
    );

  return (
    <Stack gap="md">
      <TextInput
        label={t('usersAdmin.beta.search')}
        placeholder={t('usersAdmin.users.searchPlaceholder')}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        rightSection={waiting || (list.isFetching && !list.isPending) ? <Loader size={14} /> : null}
        maw={420}
        type="search"
        data-testid="beta-search"
      />
      {list.data && (
        <Text size="sm" c="dimmed">
          {t('usersAdmin.beta.total', { count: total })}
        </Text>
      )}
      {body}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={page} onChange={setPage} aria-label={t('usersAdmin.beta.pages')} />
        </Group>
      )}
    </Stack>
  );
}

function BetaTester({ tester }: { tester: BetaTesterOut }) {
  const { t, i18n } = useTranslation();
  const answer = (question: BetaQuestion): string | null => {
    const value = tester.answers[question];
    if (value === null || value === undefined || value === '') return null;
    if (question === 'creates_tours') return t(`usersAdmin.beta.createsTours.${value as CreatesTours}`);
    if (question === 'tour_count') return t(`usersAdmin.beta.tourCount.${value as TourCount}`);
    return value;
  };
  return (
    <Paper withBorder radius="md" p="md" data-testid="beta-tester">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Stack gap={0} miw={0}>
            <Text fw={600} className={classes.name}>
              {tester.platform_username ?? tester.username}
            </Text>
            <Text size="sm" c="dimmed" className={classes.name}>
              {[tester.username, tester.email].filter(Boolean).join(' · ')}
            </Text>
          </Stack>
          <Text size="xs" c="dimmed">
            {t('usersAdmin.beta.answered', { date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(tester.created_at)) })}
          </Text>
        </Group>
        <dl className={classes.answers}>
          {BETA_QUESTIONS.map((question) => {
            const text = answer(question);
            return (
              <div key={question} style={{ display: 'contents' }}>
                <dt>{t(`usersAdmin.beta.questions.${question}`)}</dt>
                <dd>{text ?? <Text span size="sm" c="dimmed" fs="italic">{t('usersAdmin.beta.noAnswer')}</Text>}</dd>
              </div>
            );
          })}
        </dl>
      </Stack>
    </Paper>
  );
}
