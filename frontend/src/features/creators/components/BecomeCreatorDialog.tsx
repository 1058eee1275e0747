import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Button, Center, Group, List, Loader, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAddressBook,
  IconChartBar,
  IconHourglassHigh,
  IconId,
  IconStar,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { renewBearerToken } from '../../../shared/api/tokenRenewal';
import { useCurrentUser } from '../../../shared/auth/currentUser';
import { useSession } from '../../../shared/auth/session';
import { creatorQueryKeys } from '../../../shared/creators/creatorQueryKeys';
import { pendingCreatorQueryOptions } from '../../../shared/creators/pendingCreator';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { paths } from '../../../shared/routing/paths';
import { closeBecomeCreator, useBecomeCreatorOpened } from '../model/becomeCreatorDialog';
import { emptyCreatorForm } from '../model/creatorForm';
import classes from './BecomeCreatorDialog.module.css';
import { CreatorProfileForm } from './CreatorProfileForm';

type Step = 'info' | 'form' | 'sent';

const PERKS: { key: 'page' | 'featured' | 'followers' | 'contact' | 'analytics'; icon: Icon }[] = [
  { key: 'page', icon: IconId },
  { key: 'featured', icon: IconStar },
  { key: 'followers', icon: IconUsers },
  { key: 'contact', icon: IconAddressBook },
  { key: 'analytics', icon: IconChartBar },
];

/**
 * Spec §2 "become creator and info": what a creator gets, then the creator profile form; a sent
 * profile waits for an administrator (201 AddEditPending), and while it waits the dialog says so
 * instead of offering the form again. A profile that applies at once (200) opens its page.
 */
export function BecomeCreatorDialog() {
  const { t } = useTranslation();
  const opened = useBecomeCreatorOpened();
  const mobile = useIsMobile();
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const pending = useQuery({ ...pendingCreatorQueryOptions(session.claims?.sub ?? 'user'), enabled: opened && session.signedIn });
  const [step, setStep] = useState<Step>('info');

  const close = () => {
    closeBecomeCreator();
    setStep('info');
  };
  const waiting = step === 'sent' || pending.data?.is_pending === true;
  const publishedId = pending.data?.creator_id ?? session.creatorId;

  const onSaved = (outcome: { kind: 'updated' | 'pending'; profile: { id: number } | null }) => {
    void queryClient.invalidateQueries({ queryKey: creatorQueryKeys.all });
    if (outcome.kind === 'pending') {
      setStep('sent');
      return;
    }
    // Applied at once (a trusted account): the token learns the creator id, and the page opens.
    void renewBearerToken();
    close();
    if (outcome.profile) void navigate(paths.creator(outcome.profile.id));
  };

  const title = waiting ? t('becomeCreator.pendingTitle') : step === 'form' ? t('becomeCreator.formTitle') : t('becomeCreator.title');
  const loading = pending.isPending || user.isPending;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      size={step === 'form' && !waiting ? 'xl' : 'lg'}
      radius={mobile ? 0 : 'lg'}
      fullScreen={mobile && step === 'form' && !waiting}
      padding={mobile ? 'md' : 'xl'}
      closeOnClickOutside={step !== 'form'}
      zIndex={250}
      styles={{ title: { fontWeight: 700, fontSize: '1.25rem' } }}
      data-testid="become-creator-dialog"
    >
      {loading ? (
        <Center mih={200}>
          <Loader aria-label={t('page.loading')} />
        </Center>
      ) : waiting ? (
        <PendingState onClose={close} />
      ) : publishedId != null && !pending.data?.is_pending ? (
        <Stack gap="md" data-testid="become-creator-already">
          <Text>{t('becomeCreator.already')}</Text>
          <Group justify="flex-end">
            <Button
              radius="xl"
              onClick={() => {
                close();
                void navigate(paths.creator(publishedId));
              }}
            >
              {t('becomeCreator.openPage')}
            </Button>
          </Group>
        </Stack>
      ) : step === 'info' ? (
        <InfoStep onContinue={() => setStep('form')} onClose={close} />
      ) : (
        <CreatorProfileForm
          mode="create"
          initial={emptyCreatorForm(user.data?.platform_username)}
          userId={Number(session.claims?.sub ?? user.data?.userid ?? 0)}
          onSaved={onSaved}
          onCancel={() => setStep('info')}
        />
      )}
    </Modal>
  );
}

function InfoStep({ onContinue, onClose }: { onContinue: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" data-testid="become-creator-info">
      <Text size="md">{t('becomeCreator.intro')}</Text>
      <List spacing="md" center className={classes.perks}>
        {PERKS.map(({ key, icon: PerkIcon }) => (
          <List.Item
            key={key}
            icon={
              <ThemeIcon size={36} radius="xl" variant="light" aria-hidden="true">
                <PerkIcon size={20} />
              </ThemeIcon>
            }
          >
            <Text fw={600} size="sm">
              {t(`becomeCreator.perks.${key}.title` as const)}
            </Text>
            <Text size="sm" c="dimmed">
              {t(`becomeCreator.perks.${key}.text` as const)}
            </Text>
          </List.Item>
        ))}
      </List>
      <Text size="sm" c="dimmed">
        {t('becomeCreator.review')}
      </Text>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" radius="xl" onClick={onClose}>
          {t('becomeCreator.notNow')}
        </Button>
        <Button radius="xl" onClick={onContinue} data-autofocus data-testid="become-creator-continue">
          {t('becomeCreator.continue')}
        </Button>
      </Group>
    </Stack>
  );
}

/** 201 AddEditPending, or a profile sent earlier: it waits for an administrator. */
function PendingState({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" align="center" ta="center" py="md" data-testid="become-creator-pending">
      <ThemeIcon size={64} radius="xl" color="yellow" variant="light" aria-hidden="true">
        <IconHourglassHigh size={34} />
      </ThemeIcon>
      <Title order={3}>{t('becomeCreator.pendingHeading')}</Title>
      <Text c="dimmed" maw={440}>
        {t('becomeCreator.pendingText')}
      </Text>
      <Button radius="xl" onClick={onClose} data-autofocus mt="xs">
        {t('common.ok')}
      </Button>
    </Stack>
  );
}
