import { completionPatch, GUIDE_STEPS, isGuideComplete, resumeStepIndex, stepWalkedPatch } from './guideSteps';

describe('getting-started guide steps', () => {
  it('is complete only when completeGuide is true', () => {
    expect(isGuideComplete({ completeGuide: false })).toBe(false);
    expect(isGuideComplete({})).toBe(false);
    expect(isGuideComplete(undefined)).toBe(false);
    expect(isGuideComplete({ completeGuide: true })).toBe(true);
  });

  it('resumes at the first step not yet walked', () => {
    expect(resumeStepIndex({ completeGuide: false })).toBe(0);
    expect(resumeStepIndex({ welcome: true, discover: true })).toBe(2);
    expect(resumeStepIndex(Object.fromEntries(GUIDE_STEPS.map((step) => [step, true])))).toBe(GUIDE_STEPS.length - 1);
  });

  it('records walked steps and completes on finish or skip', () => {
    expect(stepWalkedPatch('save')).toEqual({ save: true });
    expect(completionPatch('finished')).toEqual({ create: true, completeGuide: true });
    expect(completionPatch('skipped')).toEqual({ skipped: true, completeGuide: true });
  });
});
