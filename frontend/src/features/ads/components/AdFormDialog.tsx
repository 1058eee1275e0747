import '../../../shared/i18n/adsTexts';

import { Modal } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

import type { AdOut } from '../../../shared/api/generated/types.gen';
import { useIsMobile } from '../../../shared/layout/breakpoints';
import type { AdFormOwner } from '../model/adForm';
import { AdForm, type AdFormHandle } from './AdForm';

/** Add (for oneself, or an admin for the owner shown in Manage Ads) or edit one ad. */
export type AdFormRequest = { mode: 'add'; onBehalfOf: AdFormOwner | null } | { mode: 'edit'; ad: AdOut };

interface AdFormDialogProps {
  request: AdFormRequest;
  onClose: () => void;
  onSaved: () => void;
}

/** The add/edit ad form's modal, over Manage Ads; loaded when the form is first opened. */
export function AdFormDialog({ request, onClose, onSaved }: AdFormDialogProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const formRef = useRef<AdFormHandle>(null);
  return (
    <Modal
      opened
      // Closing asks first when something was typed; the form knows.
      onClose={() => (formRef.current ? formRef.current.requestClose() : onClose())}
      title={request.mode === 'edit' ? t('adForm.editTitle') : t('adForm.addTitle')}
      size="lg"
      radius={mobile ? 0 : 'lg'}
      fullScreen={mobile}
      padding={mobile ? 'md' : 'xl'}
      closeOnClickOutside={false}
      // Above the Manage Ads modal; below its own confirm and message dialogs (400).
      zIndex={250}
      styles={{ title: { fontWeight: 700, fontSize: '1.25rem' } }}
    >
      <AdForm ref={formRef} request={request} onDone={onClose} onSaved={onSaved} />
    </Modal>
  );
}
