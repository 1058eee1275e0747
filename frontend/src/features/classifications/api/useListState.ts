import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useDebouncedValue } from '../../../shared/timing/useDebouncedValue';
import type { ActiveFilter, ListParams, Outcome } from './classificationsApi';
import { classificationsPrefix } from './queryKeys';

/** A list's search text (sent once typing stops), its status filter and its page. */
export function useListState() {
  const [searchText, setSearchText] = useState('');
  const [active, setActiveState] = useState<ActiveFilter>('all');
  const [page, setPage] = useState(1);
  const { debounced } = useDebouncedValue(searchText.trim(), 300);
  const params: ListParams = { search: debounced, active, page };
  return {
    params,
    searchText,
    setSearch: (text: string) => {
      setSearchText(text);
      setPage(1);
    },
    setActive: (filter: ActiveFilter) => {
      setActiveState(filter);
      setPage(1);
    },
    setPage,
    /** Filters of the tab's own changed: back to the first page. */
    firstPage: () => setPage(1),
  };
}

/**
 * A row's active switch: the change, the row waiting for its answer, and the server's refusal (a row
 * in use cannot be deactivated: the 409's message), shown above the list until dismissed.
 */
export function useActiveToggle<T>(
  send: (row: T, active: boolean) => Promise<Outcome<unknown>>,
  nameOf: (row: T) => string,
  prefix: readonly unknown[] = classificationsPrefix,
  /** The notice of a change made (default: the row is active again / deactivated). */
  noticeOf?: (active: boolean, name: string) => string,
) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: ({ row, active }: { row: T; active: boolean; id: number }) => send(row, active),
    onMutate: () => setProblem(null),
    onSuccess: (outcome, { row, active }) => {
      if (outcome.kind === 'saved') {
        void queryClient.invalidateQueries({ queryKey: prefix });
        notifications.show({
          color: 'teal',
          message: noticeOf
            ? noticeOf(active, nameOf(row))
            : t(active ? 'classifications.list.activated' : 'classifications.list.deactivated', { name: nameOf(row) }),
        });
        return;
      }
      setProblem(outcome.message ?? t('classifications.list.changeFailed'));
    },
    onError: () => setProblem(t('classifications.list.changeFailed')),
  });
  return {
    problem,
    clearProblem: () => setProblem(null),
    busyId: mutation.isPending ? mutation.variables.id : null,
    toggle: (row: T, id: number, active: boolean) => mutation.mutate({ row, active, id }),
  };
}
