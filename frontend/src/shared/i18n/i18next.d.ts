import 'i18next';

import type { Catalogue } from './locales/en';

// Typed keys: `t('a.missing.key')` fails the type check instead of showing the raw key.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Catalogue };
  }
}
