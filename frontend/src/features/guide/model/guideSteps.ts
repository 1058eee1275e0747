/**
 * The getting-started guide for new users (spec §2, §4 "Guide"). Its progress lives in the user's
 * guide_steps (user-guide-steps): one flag per step walked, and completeGuide once it is finished or
 * skipped, after which it is never shown again.
 */
export const GUIDE_STEPS = ['welcome', 'discover', 'save', 'interests', 'create'] as const;
export type GuideStep = (typeof GUIDE_STEPS)[number];
const LAST_STEP: GuideStep = 'create';

export type GuideSteps = Record<string, unknown>;
export type GuidePatch = Record<string, boolean>;

export function isGuideComplete(steps: GuideSteps | null | undefined): boolean {
  return steps?.completeGuide === true;
}

/** Where to resume: the first step not yet walked (the last one when all were). */
export function resumeStepIndex(steps: GuideSteps | null | undefined): number {
  const index = GUIDE_STEPS.findIndex((step) => steps?.[step] !== true);
  return index === -1 ? GUIDE_STEPS.length - 1 : index;
}

export function stepWalkedPatch(step: GuideStep): GuidePatch {
  return { [step]: true };
}

/** Finishing walks the last step; skipping says so. Either way the guide is complete. */
export function completionPatch(how: 'finished' | 'skipped'): GuidePatch {
  return how === 'finished' ? { [LAST_STEP]: true, completeGuide: true } : { skipped: true, completeGuide: true };
}
