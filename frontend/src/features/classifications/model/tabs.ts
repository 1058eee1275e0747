/** The Classifications screen's tabs, in their order; the chosen one is kept in the link (?tab=). */
export const CLASSIFICATION_TABS = ['categories', 'subcategories', 'mediaTypes', 'captureDevices', 'tags', 'vendors', 'batch'] as const;

export type ClassificationTab = (typeof CLASSIFICATION_TABS)[number];

export function isClassificationTab(value: string | null): value is ClassificationTab {
  return CLASSIFICATION_TABS.includes(value as ClassificationTab);
}
