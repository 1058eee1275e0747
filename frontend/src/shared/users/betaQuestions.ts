import type { BetaTesterAnswers } from '../api/generated/types.gen';

export type BetaQuestion = keyof BetaTesterAnswers;
export type CreatesTours = NonNullable<BetaTesterAnswers['creates_tours']>;
export type TourCount = NonNullable<BetaTesterAnswers['tour_count']>;

/**
 * The beta-tester questionnaire's 9 questions (spec §3), in the order the form asks them and the
 * admins' list shows them; the server's rules are in app/users/beta.py.
 */
export const BETA_QUESTIONS: readonly BetaQuestion[] = [
  'creates_tours',
  'camera',
  'industry',
  'tour_count',
  'hosting_platforms',
  'use_case',
  'country',
  'heard_from',
  'feedback_frequency',
];

/** Every question is required except the camera question (spec §3, §5). */
export const OPTIONAL_BETA_QUESTIONS: ReadonlySet<BetaQuestion> = new Set<BetaQuestion>(['camera']);

/** The two questions answered by choosing: their choices, as the server names them. */
export const CREATES_TOURS_CHOICES: readonly CreatesTours[] = ['yes', 'no', 'planning'];
export const TOUR_COUNT_CHOICES: readonly TourCount[] = ['none', '1-10', '11-50', '51-200', 'more than 200'];

/** The longest answer the server keeps (app/users/schemas.py BetaText). */
export const BETA_ANSWER_MAX = 1000;
