import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Group, Input, Modal, SegmentedControl, Slider, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { creatorQueryKeys } from '../../../shared/creators/creatorQueryKeys';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import { showMessageDialog } from '../../../shared/ui/messageDialog';
import { saveCreator } from '../api/creatorSave';
import { creatorSaveOutcome, formValuesToPayload, LOGO_SCALE_MAX, LOGO_SCALE_MIN, profileToFormValues } from '../model/creatorForm';
import { type CreatorProfile, type LogoBackground } from '../model/creatorProfile';
import { CreatorLogo } from './CreatorLogo';

export interface CreatorSettings {
  default_view: 'grid' | 'map';
  bgColor: LogoBackground;
  logoScale: number;
  profileScale: number;
  joined_fb_group: boolean;
}

export function settingsOf(profile: CreatorProfile): CreatorSettings {
  const values = profileToFormValues(profile);
  return {
    default_view: values.default_view,
    bgColor: values.bgColor,
    logoScale: values.logoScale,
    profileScale: profile.img_settings.profileScale ?? 10,
    joined_fb_group: profile.joined_fb_group,
  };
}

/** The profile as it is, with the settings changed: the creator payload of PUT /v2/creators/. */
export function settingsPayload(profile: CreatorProfile, settings: CreatorSettings) {
  const values = { ...profileToFormValues(profile), default_view: settings.default_view, bgColor: settings.bgColor, logoScale: settings.logoScale };
  return formValuesToPayload(values, { creatorId: profile.id, joinedGroup: settings.joined_fb_group, profileScale: settings.profileScale });
}

/**
 * Spec §2 "creator settings": the page's default view, how the logo is drawn (img_settings) and
 * whether the creator has joined the creators' group. Saved with the rest of the profile as it is;
 * like any edit it may wait for approval (201), which the dialog says.
 */
export function CreatorSettingsDialog({ profile, opened, onClose }: { profile: CreatorProfile; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const [settings, setSettings] = useState<CreatorSettings>(() => settingsOf(profile));
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const change = (part: Partial<CreatorSettings>) => setSettings((current) => ({ ...current, ...part }));

  const save = async () => {
    setSaving(true);
    setProblem(null);
    try {
      const answer = await saveCreator('edit', settingsPayload(profile, settings));
      const outcome = creatorSaveOutcome(answer.status, answer.body);
      if (outcome.kind === 'rejected') {
        // The settings cannot fail alone: a reason names a field of the profile, which the edit form shows.
        setProblem([outcome.message, ...Object.values(outcome.fields)].filter(Boolean).join(' · ') || t('creatorForm.failed'));
        return;
      }
      void queryClient.invalidateQueries({ queryKey: creatorQueryKeys.all });
      onClose();
      if (outcome.kind === 'pending') {
        showMessageDialog({ title: t('creatorEdit.pendingTitle'), message: t('creatorEdit.pendingText'), okLabel: t('common.ok'), testId: 'creator-edit-pending' });
      } else {
        notifications.show({ color: 'teal', message: t('creatorSettings.saved') });
      }
    } catch {
      setProblem(t('creatorForm.failed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('creatorSettings.title')}
      size="md"
      radius={mobile ? 0 : 'lg'}
      fullScreen={mobile}
      padding={mobile ? 'md' : 'xl'}
      zIndex={250}
      styles={{ title: { fontWeight: 700, fontSize: '1.25rem' } }}
    >
      <Stack gap="lg" data-testid="creator-settings">
        {problem && (
          <Alert color="red" variant="light" radius="md" role="alert">
            {problem}
          </Alert>
        )}
        <Input.Wrapper label={t('creatorForm.defaultView')} description={t('creatorForm.defaultViewHint')}>
          <SegmentedControl
            mt={6}
            radius="xl"
            fullWidth
            data={[
              { value: 'grid', label: t('creatorPage.views.grid') },
              { value: 'map', label: t('creatorPage.views.map') },
            ]}
            value={settings.default_view}
            onChange={(value) => change({ default_view: value === 'map' ? 'map' : 'grid' })}
            data-testid="creator-settings-view"
          />
        </Input.Wrapper>
        <Group align="center" gap="lg" wrap="nowrap">
          <CreatorLogo profile={{ logo: profile.logo, creator_name: profile.creator_name, img_settings: { bgColor: settings.bgColor, logoScale: settings.logoScale } }} size={88} />
          <Stack gap="sm" style={{ flex: 1 }}>
            <Input.Wrapper label={t('creatorForm.background')}>
              <SegmentedControl
                mt={6}
                radius="xl"
                fullWidth
                data={[
                  { value: 'white', label: t('creatorForm.white') },
                  { value: 'black', label: t('creatorForm.black') },
                ]}
                value={settings.bgColor}
                onChange={(value) => change({ bgColor: value === 'white' ? 'white' : 'black' })}
                data-testid="creator-settings-background"
              />
            </Input.Wrapper>
            <Input.Wrapper label={t('creatorForm.scale', { scale: (settings.logoScale / 10).toFixed(1) })}>
              <Slider
                mt={10}
                min={LOGO_SCALE_MIN}
                max={LOGO_SCALE_MAX}
                label={(value) => `${(value / 10).toFixed(1)}×`}
                thumbLabel={t('creatorForm.scaleLabel')}
                value={settings.logoScale}
                onChange={(logoScale) => change({ logoScale })}
              />
            </Input.Wrapper>
          </Stack>
        </Group>
        <Switch
          label={t('creatorSettings.joinedGroup')}
          description={t('creatorSettings.joinedGroupHint')}
          checked={settings.joined_fb_group}
          onChange={(event) => change({ joined_fb_group: event.currentTarget.checked })}
          data-testid="creator-settings-group"
        />
        <Text size="xs" c="dimmed">
          {t('creatorSettings.approvalNote')}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" radius="xl" onClick={onClose} disabled={saving}>
            {t('creatorForm.cancel')}
          </Button>
          <Button radius="xl" onClick={() => void save()} loading={saving} data-testid="creator-settings-save">
            {t('creatorSettings.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
