import { readItem, STORAGE_KEYS, writeItem } from '../../../shared/storage/localStore';

/**
 * The preview guide for guests (spec §2): a short tour of the feed, search, filters and map, shown
 * once per browser; dismissing or finishing it is remembered in localStorage `previewGuideSeen`.
 */
export function previewGuideSeen(): boolean {
  return readItem(STORAGE_KEYS.previewGuideSeen) === 'true';
}

export function markPreviewGuideSeen(): void {
  writeItem(STORAGE_KEYS.previewGuideSeen, 'true');
}

export type PreviewStepKey = 'welcome' | 'categories' | 'search' | 'filters' | 'view' | 'account';

export interface PreviewStep {
  key: PreviewStepKey;
  /** The element the step points at; none for the welcome, which stands in the middle. */
  selector?: string;
}

export const PREVIEW_STEPS: readonly PreviewStep[] = [
  { key: 'welcome' },
  { key: 'categories', selector: '[data-testid="category-strip"]' },
  { key: 'search', selector: '[data-testid="search-input"]' },
  { key: 'filters', selector: '[data-testid="filters-button"]' },
  { key: 'view', selector: '[data-testid="view-toggle"]' },
  { key: 'account', selector: '[data-testid="profile-menu"]' },
];

/** The steps whose element is on screen (the search box hides on the personal feed, for one). */
export function availablePreviewSteps(root: ParentNode = document): PreviewStep[] {
  return PREVIEW_STEPS.filter((step) => !step.selector || root.querySelector(step.selector) !== null);
}
