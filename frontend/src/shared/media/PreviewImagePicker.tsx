import '../i18n/manageTexts'; // this screen's English texts (not in the feed's bundle)
import { Alert, Button, FileButton, Group, Image, Input, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { usePlatformConfig } from '../platform/platformConfig';
import { PREVIEW_ACCEPT, type PreviewFileProblem, previewFileProblem } from './previewFile';

/** What the server answers to an uploaded preview picture. */
export interface UploadedPreview {
  path: string;
  pending: boolean;
  message: string;
}

/** The caller's texts: each form names the picture in its own words. */
export interface PreviewImageTexts {
  label: string;
  hint: string;
  alt: string;
  upload: string;
  replace: string;
  remove: string;
  fileProblem: (problem: PreviewFileProblem) => string;
  uploadFailed: (error: unknown) => string;
}

interface PreviewImagePickerProps {
  /** The uploaded picture's path, or '' when there is none. */
  value: string;
  error: ReactNode;
  required: boolean;
  isAdmin: boolean;
  onChange: (path: string) => void;
  /** A message to show under the field, or null to clear it. */
  onError: (message: string | null) => void;
  upload: (file: File) => Promise<UploadedPreview>;
  texts: PreviewImageTexts;
  /** Prefix of the test ids: `<prefix>`, `<prefix>-preview`, `<prefix>-upload`. */
  testId: string;
  rowClassName?: string;
  frameClassName?: string;
}

/**
 * Spec §2 "image upload" / §5: a preview picture (the media form's and the Ad card's), uploaded here
 * (pdf, jpg, jpeg, png; at most 2 MB, checked before sending; 600 x 400 recommended).
 */
export function PreviewImagePicker(props: PreviewImagePickerProps) {
  const { value: picture, texts, testId } = props;
  const [uploading, setUploading] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  const upload = async (file: File | null) => {
    if (!file) return;
    const problem = previewFileProblem(file);
    if (problem) {
      props.onError(texts.fileProblem(problem));
      return;
    }
    setUploading(true);
    props.onError(null);
    try {
      const answer = await props.upload(file);
      props.onChange(answer.path);
      // With images approval on, the server says the picture waits too.
      setNote(answer.pending ? answer.message : null);
    } catch (error) {
      props.onError(texts.uploadFailed(error));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Input.Wrapper label={texts.label} withAsterisk={props.required} description={texts.hint} error={props.error} data-testid={testId}>
      {/* A narrow screen with a long button label (Russian) puts the button under the picture. */}
      <Group align="flex-start" gap="md" mt={6} wrap="wrap" className={props.rowClassName}>
        <div className={props.frameClassName}>
          {picture ? (
            <Image src={picture} alt={texts.alt} fit="cover" h="100%" w="100%" data-testid={`${testId}-preview`} />
          ) : (
            <IconPhoto size={32} stroke={1.3} aria-hidden="true" />
          )}
        </div>
        <Stack gap="xs">
          <FileButton onChange={(file) => void upload(file)} accept={PREVIEW_ACCEPT}>
            {(buttonProps) => (
              <Button {...buttonProps} variant="light" radius="xl" size="sm" leftSection={<IconUpload size={16} />} loading={uploading} data-testid={`${testId}-upload`}>
                {picture ? texts.replace : texts.upload}
              </Button>
            )}
          </FileButton>
          {picture && (
            <Button variant="subtle" color="gray" radius="xl" size="compact-sm" leftSection={<IconTrash size={14} />} onClick={() => props.onChange('')}>
              {texts.remove}
            </Button>
          )}
        </Stack>
      </Group>
      {note && (
        <Text size="xs" c="blue.7" mt={6}>
          {note}
        </Text>
      )}
      <ImagesApprovalHint isAdmin={props.isAdmin} />
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
