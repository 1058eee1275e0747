import { addEnglishTexts } from './i18n';
import { enMailing } from './locales/en.mailing';

// Imported for its effect by the mailing-list page (lazily loaded): its English texts join the
// catalogue when the page's code arrives, not with the feed's bundle.
addEnglishTexts(enMailing);
