/** The server's limits of an admin's message (app/notifications/schemas.py). */
export const MESSAGE_TITLE_MAX = 200;
export const MESSAGE_TEXT_MAX = 5000;

export type MessageError = 'required' | 'tooLong';

export interface MessageErrors {
  title?: MessageError;
  message?: MessageError;
}

/** Both fields are required once trimmed, within the server's lengths. */
export function validateMessage(title: string, message: string): MessageErrors {
  const errors: MessageErrors = {};
  const check = (text: string, max: number): MessageError | undefined => {
    const trimmed = text.trim();
    if (trimmed === '') return 'required';
    if (trimmed.length > max) return 'tooLong';
    return undefined;
  };
  const titleError = check(title, MESSAGE_TITLE_MAX);
  const messageError = check(message, MESSAGE_TEXT_MAX);
  if (titleError) errors.title = titleError;
  if (messageError) errors.message = messageError;
  return errors;
}

export interface TransferInput {
  sourceId: number;
  target: { userid: number } | null;
  /** Every tour of the source, or the chosen ones. */
  mode: 'all' | 'chosen';
  chosen: readonly string[];
  /** How many tours the source has. */
  tourCount: number;
}

export interface TransferErrors {
  target?: 'required' | 'same';
  tours?: 'none' | 'empty';
}

/** A receiver other than the giver, and at least one tour to move. */
export function validateTransfer(input: TransferInput): TransferErrors {
  const errors: TransferErrors = {};
  if (input.target === null) errors.target = 'required';
  else if (input.target.userid === input.sourceId) errors.target = 'same';
  if (input.tourCount === 0) errors.tours = 'empty';
  else if (input.mode === 'chosen' && input.chosen.length === 0) errors.tours = 'none';
  return errors;
}

/** The request body's tours: null moves every tour. */
export function transferTours(input: Pick<TransferInput, 'mode' | 'chosen'>): string[] | null {
  return input.mode === 'all' ? null : [...input.chosen];
}

export interface RankFormValues {
  sourceId: string | null;
  target: string;
  value: string;
  position: string;
}

export interface RankFormErrors {
  sourceId?: 'required';
  target?: 'required' | 'creatorId';
  value?: 'required' | 'number' | 'range';
  position?: 'position';
}

/** A rank source, a tour guid or creator id (adding only), a finite value within the server's bounds, an optional place from 1. */
export function validateRank(values: RankFormValues, { adding, creators, limit }: { adding: boolean; creators: boolean; limit: number }): RankFormErrors {
  const errors: RankFormErrors = {};
  if (adding) {
    if (values.sourceId === null) errors.sourceId = 'required';
    const target = values.target.trim();
    if (target === '') errors.target = 'required';
    else if (creators && !/^[1-9]\d{0,9}$/.test(target)) errors.target = 'creatorId';
  }
  const valueText = values.value.trim();
  const value = Number(valueText);
  if (valueText === '') errors.value = 'required';
  else if (!Number.isFinite(value)) errors.value = 'number';
  else if (Math.abs(value) > limit) errors.value = 'range';
  const position = values.position.trim();
  if (position !== '' && !/^[1-9]\d{0,8}$/.test(position)) errors.position = 'position';
  return errors;
}
