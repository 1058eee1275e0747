import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { splitFieldErrors } from '../model/names';
import type { Outcome } from './classificationsApi';
import { classificationsPrefix } from './queryKeys';

/**
 * Saving an add / edit form: the lists and pickers refresh and the dialog closes; a refusal puts the
 * server's message on its field (a name taken, a category that cannot take it) or above the form.
 */
export function useEditorSave<V, B, T>({
  form,
  toBody,
  save,
  fields,
  creating,
  nameOf,
  onSaved,
}: {
  form: UseFormReturnType<V>;
  toBody: (values: V) => B;
  save: (body: B) => Promise<Outcome<T>>;
  /** The form's fields that can show a message. */
  fields: readonly string[];
  creating: boolean;
  nameOf: (saved: T) => string;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (values: V) => save(toBody(values)),
    onMutate: () => setProblem(null),
    onSuccess: (outcome) => {
      if (outcome.kind === 'saved') {
        void queryClient.invalidateQueries({ queryKey: classificationsPrefix });
        notifications.show({ color: 'teal', message: t(creating ? 'classifications.form.created' : 'classifications.form.saved', { name: nameOf(outcome.data) }) });
        onSaved();
        return;
      }
      if (outcome.kind === 'refused') {
        const { onFields, elsewhere } = splitFieldErrors(outcome.fields, fields);
        form.setErrors(onFields);
        if (elsewhere.length > 0) setProblem(elsewhere.join(' '));
        else if (Object.keys(onFields).length === 0) setProblem(outcome.message ?? t('classifications.form.failed'));
        return;
      }
      setProblem(outcome.message ?? t('classifications.form.failed'));
    },
    onError: () => setProblem(t('classifications.form.failed')),
  });
  return { problem, saving: mutation.isPending, submit: form.onSubmit((values) => mutation.mutate(values)) };
}
