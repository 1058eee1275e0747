import { Alert } from '@mantine/core';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';

/** A failed send that no field explains (a 429, a network error): the server's message or the form's fallback. */
export function FormFailure({ error, fallback }: { error: unknown; fallback: string }) {
  if (!error || Object.keys(fieldErrors(error)).length > 0) return null;
  return (
    <Alert color="red" role="alert">
      {errorMessage(error, fallback)}
    </Alert>
  );
}
