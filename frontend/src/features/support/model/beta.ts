import type { BetaTesterAnswers } from '../../../shared/api/generated/types.gen';
import { BETA_ANSWER_MAX, BETA_QUESTIONS, type BetaQuestion, OPTIONAL_BETA_QUESTIONS } from '../../../shared/users/betaQuestions';

/** The form's values: one text a question ('' when unanswered); the two choices hold their server value. */
export type BetaValues = Record<BetaQuestion, string>;

export type BetaError = 'required' | 'tooLong';

/** The form's values from the answers given before (null and absent answers are empty). */
export function betaValues(answers: BetaTesterAnswers | null | undefined): BetaValues {
  return Object.fromEntries(BETA_QUESTIONS.map((question) => [question, answers?.[question] ?? ''])) as BetaValues;
}

/** The server's rules (app/users/beta.py): every question but the camera answered, none longer than it keeps. */
export function validateBetaValues(values: BetaValues): Partial<Record<BetaQuestion, BetaError>> {
  const errors: Partial<Record<BetaQuestion, BetaError>> = {};
  for (const question of BETA_QUESTIONS) {
    const value = values[question].trim();
    if (value === '' && !OPTIONAL_BETA_QUESTIONS.has(question)) errors[question] = 'required';
    else if (value.length > BETA_ANSWER_MAX) errors[question] = 'tooLong';
  }
  return errors;
}

/** The request's body: trimmed answers, an empty one sent as null. */
export function betaAnswersBody(values: BetaValues): BetaTesterAnswers {
  return Object.fromEntries(BETA_QUESTIONS.map((question) => [question, values[question].trim() || null])) as BetaTesterAnswers;
}
