import { Alert, Button, Checkbox, Group, Modal, Select, SimpleGrid, Stack, Text, Textarea, TextInput, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import {
  IconAlertTriangle,
  IconBrandFacebook,
  IconBrandInstagram,
  IconBrandLinkedin,
  IconBrandX,
  IconBrandYoutube,
  IconStar,
} from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../../../shared/layout/breakpoints';
import { listedToursQueryOptions, type SubmissionOutcome, submitTourToday } from '../api/dailyFeatured';
import {
  DESCRIPTION_MAX,
  EMPTY_SUBMISSION,
  LINK_MAX,
  SOCIAL_NETWORKS,
  type SocialNetwork,
  type SubmissionValues,
  validateSubmission,
} from '../model/dailyFeatured';

const NETWORK_ICONS: Record<SocialNetwork, ReactNode> = {
  instagram: <IconBrandInstagram size={16} aria-hidden="true" />,
  facebook: <IconBrandFacebook size={16} aria-hidden="true" />,
  twitter: <IconBrandX size={16} aria-hidden="true" />,
  youtube: <IconBrandYoutube size={16} aria-hidden="true" />,
  linkedin: <IconBrandLinkedin size={16} aria-hidden="true" />,
};

interface DailyFeaturedDialogProps {
  userId: number;
  /** The user answered for today (submitted, declined, or the server says it has one already). */
  onAnswered: () => void;
}

/**
 * Spec §2 "a daily featured-tour dialog that the user cannot close": no close button, Escape and a
 * click outside do nothing; it leaves only through "Not today" or a submission (spec §3 Daily featured
 * submission: one of the creator's listed tours, a description, social links and the consent to be
 * mentioned as its creator).
 */
export function DailyFeaturedDialog({ userId, onAnswered }: DailyFeaturedDialogProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [step, setStep] = useState<'offer' | 'form'>('offer');
  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      title={t('dailyFeatured.title')}
      size={step === 'form' ? 'lg' : 'md'}
      radius={mobile && step === 'form' ? 0 : 'lg'}
      fullScreen={mobile && step === 'form'}
      centered
      // Above the pages and their dialogs, below the message dialogs (400).
      zIndex={380}
      data-testid="daily-featured-dialog"
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {step === 'offer' ? (
        <Offer onSubmit={() => setStep('form')} onDecline={onAnswered} />
      ) : (
        <SubmissionForm userId={userId} onBack={() => setStep('offer')} onAnswered={onAnswered} />
      )}
    </Modal>
  );
}

function Offer({ onSubmit, onDecline }: { onSubmit: () => void; onDecline: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size={40} radius="xl" color="yellow" variant="light">
          <IconStar size={22} aria-hidden="true" />
        </ThemeIcon>
        <Text size="sm">{t('dailyFeatured.offer')}</Text>
      </Group>
      <Group justify="flex-end" gap="xs">
        <Button variant="default" radius="xl" onClick={onDecline} data-testid="daily-featured-not-today">
          {t('dailyFeatured.notToday')}
        </Button>
        <Button radius="xl" onClick={onSubmit} data-autofocus data-testid="daily-featured-submit-a-tour">
          {t('dailyFeatured.submitATour')}
        </Button>
      </Group>
    </Stack>
  );
}

function SubmissionForm({ userId, onBack, onAnswered }: { userId: number; onBack: () => void; onAnswered: () => void }) {
  const { t } = useTranslation();
  const tours = useQuery(listedToursQueryOptions(userId));
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<SubmissionValues>({
    mode: 'controlled',
    initialValues: EMPTY_SUBMISSION,
    validate: (values) =>
      Object.fromEntries(Object.entries(validateSubmission(values)).map(([field, key]) => [field, t(key, { max: field === 'description' ? DESCRIPTION_MAX : LINK_MAX })])),
  });
  const send = useMutation({
    mutationFn: submitTourToday,
    onMutate: () => setProblem(null),
    onSuccess: (outcome: SubmissionOutcome) => {
      switch (outcome.kind) {
        case 'submitted':
          notifications.show({ color: 'teal', title: t('dailyFeatured.thanksTitle'), message: t('dailyFeatured.thanks') });
          onAnswered();
          return;
        case 'already':
          notifications.show({ color: 'yellow', message: outcome.message ?? t('dailyFeatured.already') });
          onAnswered();
          return;
        case 'refused':
          form.setErrors(Object.fromEntries(Object.entries(outcome.fields).map(([field, message]) => [field in EMPTY_SUBMISSION ? field : `links.${field}`, message])));
          setProblem(outcome.message ?? t('dailyFeatured.failed'));
          return;
        case 'failed':
          setProblem(outcome.message ?? t('dailyFeatured.failed'));
      }
    },
    onError: () => setProblem(t('dailyFeatured.failed')),
  });
  const options = (tours.data ?? []).map((tour) => ({ value: tour.guid, label: tour.title }));

  return (
    <form onSubmit={form.onSubmit((values) => send.mutate(values))} noValidate data-testid="daily-featured-form">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('dailyFeatured.formIntro')}
        </Text>
        {problem && (
          <Alert color="red" variant="light" radius="md" role="alert" icon={<IconAlertTriangle size={18} />} data-testid="daily-featured-error">
            {problem}
          </Alert>
        )}
        {tours.isError && (
          <Alert color="red" variant="light" radius="md" role="alert">
            <Group justify="space-between" gap="xs">
              {t('dailyFeatured.toursFailed')}
              <Button size="xs" variant="white" color="red" onClick={() => void tours.refetch()}>
                {t('common.retry')}
              </Button>
            </Group>
          </Alert>
        )}
        <Select
          label={t('dailyFeatured.tour')}
          placeholder={tours.isPending ? t('page.loading') : t('dailyFeatured.tourPlaceholder')}
          data={options}
          searchable
          withAsterisk
          nothingFoundMessage={t('dailyFeatured.noTourFound')}
          comboboxProps={{ withinPortal: true, zIndex: 400 }}
          maxDropdownHeight={250}
          data-testid="daily-featured-tour"
          {...form.getInputProps('guid')}
        />
        <Textarea
          label={t('dailyFeatured.description')}
          description={t('dailyFeatured.descriptionHint', { count: form.values.description.length, max: DESCRIPTION_MAX })}
          autosize
          minRows={3}
          maxRows={8}
          data-testid="daily-featured-description"
          {...form.getInputProps('description')}
        />
        <Text size="sm" fw={500} mt="xs">
          {t('dailyFeatured.socialLinks')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
          {SOCIAL_NETWORKS.map((network) => (
            <TextInput
              key={network}
              label={t(`dailyFeatured.networks.${network}`)}
              placeholder="https://"
              type="url"
              inputMode="url"
              maxLength={LINK_MAX}
              leftSection={NETWORK_ICONS[network]}
              {...form.getInputProps(`links.${network}`)}
            />
          ))}
        </SimpleGrid>
        <Checkbox mt="xs" label={t('dailyFeatured.consent')} data-testid="daily-featured-consent" {...form.getInputProps('consent', { type: 'checkbox' })} />
        <Group justify="space-between" gap="xs" mt="sm">
          <Button variant="subtle" radius="xl" onClick={onBack} disabled={send.isPending}>
            {t('dailyFeatured.back')}
          </Button>
          <Button type="submit" radius="xl" loading={send.isPending} data-testid="daily-featured-send">
            {t('dailyFeatured.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
