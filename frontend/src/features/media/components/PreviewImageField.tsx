import { Alert, Button, FileButton, Group, Image, Input, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { usePlatformConfig } from '../../../shared/platform/platformConfig';
import { uploadPreviewImage } from '../api/mediaApi';
import { PREVIEW_ACCEPT, previewFileProblem } from '../model/previewImage';
import classes from './MediaForm.module.css';
import type { MediaForm } from './MediaForm';

interface PreviewImageFieldProps {
  form: MediaForm;
  required: boolean;
  isAdmin: boolean;
}

/**
 * Spec §2 "image upload" / §5: the preview picture, filled by the link lookup or uploaded here
 * (pdf, jpg, jpeg, png; at most 2 MB, checked before sending; 600 x 400 recommended).
 */
export function PreviewImageField({ form, required, isAdmin }: PreviewImageFieldProps) {
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
        problem.kind === 'type' ? t('mediaForm.errors.imageType') : t('mediaForm.errors.imageTooLarge', { size: problem.sizeMb, max: problem.maxMb }),
      );
      return;
    }
    setUploading(true);
    form.clearFieldError('previewPicture');
    try {
      const answer = await uploadPreviewImage(file);
      form.setFieldValue('previewPicture', answer.path);
      setNote(answer.pending ? answer.message : null);
    } catch (error) {
      const message = (error as { message?: unknown } | null)?.message;
      form.setFieldError('previewPicture', typeof message === 'string' && message ? message : t('mediaForm.errors.imageUpload'));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Input.Wrapper
      label={t('mediaForm.image')}
      withAsterisk={required}
      description={t('mediaForm.imageHint')}
      error={form.errors.previewPicture}
      data-testid="media-image"
    >
      <Group align="flex-start" gap="md" mt={6} wrap="nowrap" className={classes.imageRow}>
        <div className={classes.imageFrame}>
          {picture ? (
            <Image src={picture} alt={t('mediaForm.imageAlt')} fit="cover" h="100%" w="100%" data-testid="media-image-preview" />
          ) : (
            <IconPhoto size={32} stroke={1.3} aria-hidden="true" />
          )}
        </div>
        <Stack gap="xs">
          <FileButton onChange={(file) => void upload(file)} accept={PREVIEW_ACCEPT}>
            {(props) => (
              <Button {...props} variant="light" radius="xl" size="sm" leftSection={<IconUpload size={16} />} loading={uploading} data-testid="media-image-upload">
                {picture ? t('mediaForm.imageReplace') : t('mediaForm.imageUpload')}
              </Button>
            )}
          </FileButton>
          {picture && (
            <Button variant="subtle" color="gray" radius="xl" size="compact-sm" leftSection={<IconTrash size={14} />} onClick={() => form.setFieldValue('previewPicture', '')}>
              {t('mediaForm.imageRemove')}
            </Button>
          )}
        </Stack>
      </Group>
      {note && (
        <Text size="xs" c="blue.7" mt={6}>
          {note}
        </Text>
      )}
      <ImagesApprovalHint isAdmin={isAdmin} />
    </Input.Wrapper>
  );
}

/** Spec §6: non-admins are told a preview image may need approval when images_approval applies. */
function ImagesApprovalHint({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  const config = usePlatformConfig();
  if (isAdmin || !config.data?.images_approval) return null;
  return (
    <Alert variant="light" color="blue" radius="md" mt="xs" p="xs" icon={<IconInfoCircle size={16} />}>
      <Text size="xs">{t('mediaForm.imagesApproval')}</Text>
    </Alert>
  );
}
