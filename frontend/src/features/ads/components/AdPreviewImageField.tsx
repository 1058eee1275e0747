import { Alert, Button, FileButton, Group, Image, Input, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import { useSession } from '../../../shared/auth/session';
import { usePlatformConfig } from '../../../shared/platform/platformConfig';
import { uploadAdPreviewImage } from '../api/adsApi';
import { PREVIEW_ACCEPT, previewFileProblem } from '../model/previewFile';
import type { AdFormType } from './AdForm';
import classes from './ManageAds.module.css';

/** The Ad card's picture (spec §3): uploaded through POST preview-image, checked before sending. */
export function AdPreviewImageField({ form }: { form: AdFormType }) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const picture = form.values.previewPicture;

  const upload = async (file: File | null) => {
    if (!file) return;
    const problem = previewFileProblem(file);
    if (problem) {
      form.setFieldError(
        'previewPicture',
        problem.kind === 'type' ? t('adForm.errors.imageType') : t('adForm.errors.imageTooLarge', { size: problem.sizeMb, max: problem.maxMb }),
      );
      return;
    }
    setUploading(true);
    form.clearFieldError('previewPicture');
    try {
      const answer = await uploadAdPreviewImage(file);
      form.setFieldValue('previewPicture', answer.path);
      // With images approval on, the server says the picture waits too.
      setNote(answer.pending ? answer.message : null);
    } catch (error) {
      form.setFieldError('previewPicture', errorMessage(error, t('adForm.errors.imageUpload')));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Input.Wrapper label={t('adForm.image')} withAsterisk description={t('adForm.imageHint')} error={form.errors.previewPicture} data-testid="ad-image">
      <Group align="flex-start" gap="md" mt={6} wrap="nowrap">
        <div className={classes.imageFrame}>
          {picture ? <Image src={picture} alt={t('adForm.imageAlt')} fit="cover" h="100%" w="100%" data-testid="ad-image-preview" /> : <IconPhoto size={32} stroke={1.3} aria-hidden="true" />}
        </div>
        <Stack gap="xs">
          <FileButton onChange={(file) => void upload(file)} accept={PREVIEW_ACCEPT}>
            {(props) => (
              <Button {...props} variant="light" radius="xl" size="sm" leftSection={<IconUpload size={16} />} loading={uploading} data-testid="ad-image-upload">
                {picture ? t('adForm.imageReplace') : t('adForm.imageUpload')}
              </Button>
            )}
          </FileButton>
          {picture && (
            <Button variant="subtle" color="gray" radius="xl" size="compact-sm" leftSection={<IconTrash size={14} />} onClick={() => form.setFieldValue('previewPicture', '')}>
              {t('adForm.imageRemove')}
            </Button>
          )}
        </Stack>
      </Group>
      {note && (
        <Text size="xs" c="blue.7" mt={6}>
          {note}
        </Text>
      )}
      <ImagesApprovalHint />
    </Input.Wrapper>
  );
}

/** Spec §6: non-admins are told a new picture may need approval when images_approval applies. */
function ImagesApprovalHint() {
  const { t } = useTranslation();
  const isAdmin = useSession().role === 'admin';
  const config = usePlatformConfig();
  if (isAdmin || !config.data?.images_approval) return null;
  return (
    <Alert variant="light" color="blue" radius="md" mt="xs" p="xs" icon={<IconInfoCircle size={16} />}>
      <Text size="xs">{t('mediaForm.imagesApproval')}</Text>
    </Alert>
  );
}
