import { Alert, Autocomplete, Button, Group, Radio, Stack, Text, Textarea, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import type { BetaTesterOut } from '../../../shared/api/generated/types.gen';
import { useSession } from '../../../shared/auth/session';
import { PartLoading } from '../../../shared/ui/PartLoading';
import {
  BETA_ANSWER_MAX,
  BETA_QUESTIONS,
  type BetaQuestion,
  CREATES_TOURS_CHOICES,
  TOUR_COUNT_CHOICES,
} from '../../../shared/users/betaQuestions';
import { ownBetaAnswersQueryOptions, useSendBetaAnswers } from '../api/supportApi';
import { betaAnswersBody, type BetaValues, betaValues, validateBetaValues } from '../model/beta';
import { FormFailure } from './FormFailure';

/** The questions answered in words (the other two by choosing). */
type WrittenQuestion = Exclude<BetaQuestion, 'creates_tours' | 'tour_count'>;

const FEEDBACK_SUGGESTIONS = ['weekly', 'twiceMonthly', 'monthly', 'sometimes'] as const;

/**
 * Spec §2 "beta-tester questionnaire" (§3: 9 questions, every one required but the camera question; §5):
 * prefilled with the account's earlier answers, sent to POST /v2/users/beta-tester, then a thank-you.
 */
export function BetaQuestionnaire({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const userId = useSession().claims?.sub ?? 'me';
  const earlier = useQuery(ownBetaAnswersQueryOptions(userId));
  const [thanked, setThanked] = useState(false);

  if (earlier.isPending) return <PartLoading minHeight={320} />;
  if (earlier.isError) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('help.beta.loadFailed')} data-testid="beta-load-failed">
        <Stack gap="xs" align="flex-start">
          {errorMessage(earlier.error, '') && <Text size="sm">{errorMessage(earlier.error, '')}</Text>}
          <Button size="xs" variant="white" color="red" onClick={() => void earlier.refetch()}>
            {t('updates.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (thanked) return <ThankYou onClose={onClose} onChange={() => setThanked(false)} />;
  // A new answer replaces the cached one: the form starts again from it.
  return <BetaForm key={earlier.data?.created_at ?? 'first'} userId={userId} earlier={earlier.data} onSaved={() => setThanked(true)} />;
}

function BetaForm({ userId, earlier, onSaved }: { userId: string; earlier: BetaTesterOut | null; onSaved: () => void }) {
  const { t, i18n } = useTranslation();
  const form = useForm<BetaValues>({
    mode: 'controlled',
    initialValues: betaValues(earlier?.answers),
    validate: (values) =>
      Object.fromEntries(
        Object.entries(validateBetaValues(values)).map(([question, error]) => [question, t(`help.beta.${error}`, { max: BETA_ANSWER_MAX })]),
      ),
  });
  const send = useSendBetaAnswers(userId);

  /** The first question (in the form's order) that needs the user, focused so a phone scrolls to it. */
  const focusFirst = (errors: Record<string, unknown>) => {
    const question = BETA_QUESTIONS.find((name) => errors[name]);
    if (!question) return;
    const node = form.getInputNode(question);
    const target = node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement ? node : node?.querySelector<HTMLElement>('input, textarea');
    target?.focus();
  };
  const submit = form.onSubmit(
    (values) =>
      send.mutate(betaAnswersBody(values), {
        onSuccess: onSaved,
        onError: (error) => {
          const fields = fieldErrors(error);
          form.setErrors(fields);
          focusFirst(fields);
        },
      }),
    focusFirst,
  );

  const text = (question: WrittenQuestion) => ({
    label: t(`help.beta.questions.${question}`),
    placeholder: t(`help.beta.placeholders.${question}`),
    maxLength: BETA_ANSWER_MAX,
    // An unanswered question keeps its grey example: a red one would read like a wrong answer.
    styles: { wrapper: { '--input-placeholder-color': 'var(--mantine-color-placeholder)' } },
    'data-testid': `beta-${question}`,
    ...form.getInputProps(question),
  });

  const choice = (question: Exclude<BetaQuestion, WrittenQuestion>, choices: { value: string; label: string }[]) => (
    <Radio.Group label={t(`help.beta.questions.${question}`)} withAsterisk data-testid={`beta-${question}`} {...form.getInputProps(question)}>
      <Group gap="md" mt={6}>
        {choices.map(({ value, label }) => (
          <Radio key={value} value={value} label={label} />
        ))}
      </Group>
    </Radio.Group>
  );

  return (
    <form onSubmit={submit} noValidate data-testid="beta-form">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('help.beta.intro')}
        </Text>
        {earlier && (
          <Alert color="blue" variant="light" role="status" icon={<IconInfoCircle size={18} />} data-testid="beta-answered">
            {t('help.beta.answeredOn', { date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(earlier.created_at)) })}
          </Alert>
        )}
        {choice('creates_tours', CREATES_TOURS_CHOICES.map((value) => ({ value, label: t(`help.beta.createsTours.${value}`) })))}
        <TextInput {...text('camera')} label={`${t('help.beta.questions.camera')} ${t('help.beta.optional')}`} />
        <TextInput {...text('industry')} required />
        {choice('tour_count', TOUR_COUNT_CHOICES.map((value) => ({ value, label: t(`help.beta.tourCount.${value}`) })))}
        <TextInput {...text('hosting_platforms')} required />
        <Textarea {...text('use_case')} required autosize minRows={2} maxRows={6} />
        <TextInput {...text('country')} required autoComplete="country-name" />
        <TextInput {...text('heard_from')} required />
        <Autocomplete
          {...text('feedback_frequency')}
          required
          data={FEEDBACK_SUGGESTIONS.map((key) => t(`help.beta.feedbackSuggestions.${key}`))}
          comboboxProps={{ withinPortal: false }}
        />
        <FormFailure error={send.error} fallback={t('help.beta.failed')} />
        <Group justify="flex-end">
          <Button type="submit" radius="xl" loading={send.isPending} data-testid="beta-send">
            {earlier ? t('help.beta.update') : t('help.beta.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ThankYou({ onClose, onChange }: { onClose: () => void; onChange: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" ta="center" gap="md" py="lg" role="status" data-testid="beta-thanks">
      <ThemeIcon size={56} radius="xl" color="teal" variant="light">
        <IconCircleCheck size={32} aria-hidden="true" />
      </ThemeIcon>
      <Title order={3}>{t('help.beta.thanksTitle')}</Title>
      <Text c="dimmed" maw={360}>
        {t('help.beta.thanksText')}
      </Text>
      <Group justify="center" gap="sm">
        <Button variant="default" radius="xl" onClick={onChange} data-testid="beta-change">
          {t('help.beta.change')}
        </Button>
        <Button radius="xl" onClick={onClose} data-testid="beta-close">
          {t('help.beta.close')}
        </Button>
      </Group>
    </Stack>
  );
}
