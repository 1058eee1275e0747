import { useSendFeatureRequest } from '../api/supportApi';
import { validateFeatureRequest } from '../model/forms';
import { ReportForm } from './ReportForm';

/** 'Feature request' (spec §2 help tool): lands in the admins' feature requests tab. */
export function FeatureRequestForm({ onSent }: { onSent: () => void }) {
  const send = useSendFeatureRequest();
  return (
    <ReportForm
      kind="feature"
      validate={validateFeatureRequest}
      descriptionRequired={false}
      descriptionRows={3}
      send={send}
      toBody={(draft) => ({ title: draft.title, description: draft.description || null })}
      onSent={onSent}
    />
  );
}
