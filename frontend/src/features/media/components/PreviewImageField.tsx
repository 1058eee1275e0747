import '../../../shared/i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { useTranslation } from 'react-i18next';

import { PreviewImagePicker } from '../../../shared/media/PreviewImagePicker';
import { uploadPreviewImage } from '../api/mediaApi';
import classes from './MediaForm.module.css';
import type { MediaForm } from './MediaForm';

interface PreviewImageFieldProps {
  form: MediaForm;
  required: boolean;
  isAdmin: boolean;
}

/** The media form's preview picture, filled by the link lookup or uploaded here. */
export function PreviewImageField({ form, required, isAdmin }: PreviewImageFieldProps) {
  const { t } = useTranslation();
  return (
    <PreviewImagePicker
      value={form.values.previewPicture}
      error={form.errors.previewPicture}
      required={required}
      isAdmin={isAdmin}
      onChange={(path) => form.setFieldValue('previewPicture', path)}
      onError={(message) => (message === null ? form.clearFieldError('previewPicture') : form.setFieldError('previewPicture', message))}
      upload={uploadPreviewImage}
      texts={{
        label: t('mediaForm.image'),
        hint: t('mediaForm.imageHint'),
        alt: t('mediaForm.imageAlt'),
        upload: t('mediaForm.imageUpload'),
        replace: t('mediaForm.imageReplace'),
        remove: t('mediaForm.imageRemove'),
        fileProblem: (problem) =>
          problem.kind === 'type' ? t('mediaForm.errors.imageType') : t('mediaForm.errors.imageTooLarge', { size: problem.sizeMb, max: problem.maxMb }),
        uploadFailed: (error) => {
          const message = (error as { message?: unknown } | null)?.message;
          return typeof message === 'string' && message ? message : t('mediaForm.errors.imageUpload');
        },
      }}
      testId="media-image"
      rowClassName={classes.imageRow}
      frameClassName={classes.imageFrame}
    />
  );
}
