import { useTranslation } from 'react-i18next';

import { errorMessage } from '../../../shared/api/apiError';
import { useSession } from '../../../shared/auth/session';
import { PreviewImagePicker } from '../../../shared/media/PreviewImagePicker';
import { uploadAdPreviewImage } from '../api/adsApi';
import type { AdFormType } from './AdForm';
import classes from './ManageAds.module.css';

/** The Ad card's picture (spec §3): uploaded through POST preview-image, checked before sending. */
export function AdPreviewImageField({ form }: { form: AdFormType }) {
  const { t } = useTranslation();
  const isAdmin = useSession().role === 'admin';
  return (
    <PreviewImagePicker
      value={form.values.previewPicture}
      error={form.errors.previewPicture}
      required
      isAdmin={isAdmin}
      onChange={(path) => form.setFieldValue('previewPicture', path)}
      onError={(message) => (message === null ? form.clearFieldError('previewPicture') : form.setFieldError('previewPicture', message))}
      upload={uploadAdPreviewImage}
      texts={{
        label: t('adForm.image'),
        hint: t('adForm.imageHint'),
        alt: t('adForm.imageAlt'),
        upload: t('adForm.imageUpload'),
        replace: t('adForm.imageReplace'),
        remove: t('adForm.imageRemove'),
        fileProblem: (problem) =>
          problem.kind === 'type' ? t('adForm.errors.imageType') : t('adForm.errors.imageTooLarge', { size: problem.sizeMb, max: problem.maxMb }),
        uploadFailed: (error) => errorMessage(error, t('adForm.errors.imageUpload')),
      }}
      testId="ad-image"
      frameClassName={classes.imageFrame}
    />
  );
}
