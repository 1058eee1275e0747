import '../../../shared/i18n/adminTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../../../shared/layout/breakpoints';
import { NAME_MAX, type NameValues } from '../model/names';

interface EditorModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}

/** The add / edit dialog of a list: full screen on a phone. */
export function EditorModal({ opened, onClose, title, children }: EditorModalProps) {
  const mobile = useIsMobile();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="lg"
      radius={mobile ? 0 : 'lg'}
      fullScreen={mobile}
      centered
      data-testid="editor-modal"
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {children}
    </Modal>
  );
}

/** The English and Russian names of a row. */
export function NameFields<V extends NameValues>({ form, max = NAME_MAX }: { form: UseFormReturnType<V>; max?: number }) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput label={t('classifications.form.name')} withAsterisk maxLength={max} data-autofocus data-testid="form-name" {...form.getInputProps('name')} />
      <TextInput
        label={t('classifications.form.nameRu')}
        description={t('classifications.form.nameRuHint')}
        maxLength={max}
        lang="ru"
        data-testid="form-name-ru"
        {...form.getInputProps('name_ru')}
      />
    </>
  );
}

/** The active switch of a form. */
export function ActiveField<V extends { is_active: boolean }>({ form }: { form: UseFormReturnType<V> }) {
  const { t } = useTranslation();
  return (
    <Switch
      label={t('classifications.form.active')}
      description={t('classifications.form.activeHint')}
      color="teal"
      data-testid="form-active"
      {...form.getInputProps('is_active', { type: 'checkbox' })}
    />
  );
}

/** The form's problem that no field shows, and its Save and Cancel buttons. */
export function FormFooter({ problem, saving, onCancel }: { problem: string | null; saving: boolean; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {problem && (
        <Alert color="red" variant="light" radius="md" role="alert" icon={<IconAlertTriangle size={18} />} data-testid="form-problem">
          {problem}
        </Alert>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel}>
          {t('classifications.form.cancel')}
        </Button>
        <Button type="submit" loading={saving} data-testid="form-save">
          {t('classifications.form.save')}
        </Button>
      </Group>
    </Stack>
  );
}
