import '../../../shared/i18n/adsTexts';

import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

import type { AdOut } from '../../../shared/api/generated/types.gen';
import { FormDialog } from '../../../shared/ui/FormDialog';
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
  const formRef = useRef<AdFormHandle>(null);
  return (
    <FormDialog
      opened
      // Closing asks first when something was typed; the form knows.
      onClose={() => (formRef.current ? formRef.current.requestClose() : onClose())}
      title={request.mode === 'edit' ? t('adForm.editTitle') : t('adForm.addTitle')}
      size="lg"
    >
      <AdForm ref={formRef} request={request} onDone={onClose} onSaved={onSaved} />
    </FormDialog>
  );
}
