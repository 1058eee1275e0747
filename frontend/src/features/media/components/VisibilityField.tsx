import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Input, SegmentedControl, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { MediaForm } from './MediaForm';

type Choice = 'public' | 'unlisted' | 'draft';
const CHOICES: readonly Choice[] = ['public', 'unlisted', 'draft'];

/**
 * Who finds the tour (issue 18): everyone (feeds, map, search), only whoever has its link and visitors
 * of the owner's pages (unlisted), or nobody yet (a draft). A draft keeps the visibility it will have.
 */
export function VisibilityField({ form }: { form: MediaForm }) {
  const { t } = useTranslation();
  const { visibility, asDraft } = form.values;
  const value: Choice = asDraft ? 'draft' : visibility;
  const choose = (next: string) => {
    if (next === 'draft') form.setFieldValue('asDraft', true);
    else form.setValues({ asDraft: false, visibility: next as 'public' | 'unlisted' });
  };
  return (
    <Input.Wrapper label={t('mediaForm.visibility.label')} id="media-form-visibility">
      <SegmentedControl
        fullWidth
        radius="xl"
        mt={6}
        value={value}
        onChange={choose}
        data={CHOICES.map((choice) => ({ value: choice, label: t(`mediaForm.visibility.${choice}`) }))}
        aria-labelledby="media-form-visibility-label"
        data-testid="media-form-visibility"
      />
      <Text size="xs" c="dimmed" mt={6} data-testid="media-form-visibility-hint">
        {t(`mediaForm.visibility.${value}Hint`)}
      </Text>
    </Input.Wrapper>
  );
}
