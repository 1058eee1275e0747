import { Button, Group, Modal, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBookmark, IconCategory, IconCompass, IconPlus, IconSparkles, type Icon } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { usersPostGuideSteps } from '../../../shared/api/generated/sdk.gen';
import type { CurrentUserOut } from '../../../shared/api/generated/types.gen';
import { openSettingsDialog } from '../../../shared/settings/settingsDialog';
import { userQueryKeys } from '../../../shared/users/userQueryKeys';
import {
  completionPatch,
  GUIDE_STEPS,
  resumeStepIndex,
  stepWalkedPatch,
  type GuidePatch,
  type GuideStep,
} from '../model/guideSteps';

const STEP_ICONS: Record<GuideStep, Icon> = {
  welcome: IconSparkles,
  discover: IconCompass,
  save: IconBookmark,
  interests: IconCategory,
  create: IconPlus,
};

function useRecordSteps() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patch: GuidePatch) => (await usersPostGuideSteps({ body: { guide_steps: patch }, throwOnError: true })).data,
    onSuccess: ({ guide_steps }) =>
      queryClient.setQueryData<CurrentUserOut>(userQueryKeys.current, (user) => (user ? { ...user, guide_steps } : user)),
    onError: (error) => console.warn('Guide progress could not be saved', error),
  });
}

/** The guide's steps in a dialog (GettingStartedGuide), fetched when a new user first needs it. */
export function GuideDialog({ user, hidden, onClosed }: { user: CurrentUserOut; hidden: boolean; onClosed: () => void }) {
  const { t } = useTranslation();
  const record = useRecordSteps();
  const [index, setIndex] = useState(() => resumeStepIndex(user.guide_steps));
  const step = GUIDE_STEPS[index] ?? 'welcome';
  const last = index === GUIDE_STEPS.length - 1;
  const StepIcon = STEP_ICONS[step];

  const next = () => {
    record.mutate(stepWalkedPatch(step));
    setIndex(index + 1);
  };
  const close = (how: 'finished' | 'skipped') => {
    record.mutate(completionPatch(how));
    onClosed();
  };
  const chooseInterests = () => {
    next();
    openSettingsDialog('interests');
  };

  return (
    <Modal
      opened={!hidden}
      onClose={() => close('skipped')}
      withCloseButton={false}
      closeOnClickOutside={false}
      centered
      radius="lg"
      size="md"
      aria-labelledby="guide-title"
      data-testid="getting-started-guide"
    >
      <Stack gap="lg" align="center" ta="center" py="sm">
        <Group justify="space-between" w="100%">
          <Text size="xs" c="dimmed" data-testid="guide-progress">
            {t('guide.progress', { current: index + 1, total: GUIDE_STEPS.length })}
          </Text>
          <Button variant="subtle" color="gray" size="compact-sm" onClick={() => close('skipped')} data-testid="guide-skip">
            {t('guide.skip')}
          </Button>
        </Group>
        <Progress value={((index + 1) / GUIDE_STEPS.length) * 100} size="sm" radius="xl" w="100%" aria-hidden="true" />
        <ThemeIcon size={72} radius={24} variant="light">
          <StepIcon size={38} stroke={1.6} />
        </ThemeIcon>
        <Stack gap={8}>
          <Title order={2} size="h3" id="guide-title">
            {t(`guide.steps.${step}.title`, { name: user.first_name || user.platform_username })}
          </Title>
          <Text c="dimmed">{t(`guide.steps.${step}.text`)}</Text>
        </Stack>
        {step === 'interests' && (
          <Button variant="light" radius="xl" onClick={chooseInterests} data-testid="guide-interests">
            {t('guide.chooseInterests')}
          </Button>
        )}
        <Group justify="space-between" w="100%" mt="sm">
          <Button variant="default" radius="xl" onClick={() => setIndex(index - 1)} disabled={index === 0}>
            {t('guide.back')}
          </Button>
          {last ? (
            <Button radius="xl" onClick={() => close('finished')} data-testid="guide-finish" data-autofocus>
              {t('guide.finish')}
            </Button>
          ) : (
            <Button radius="xl" onClick={next} data-testid="guide-next" data-autofocus>
              {t('guide.next')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
