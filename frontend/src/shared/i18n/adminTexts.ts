import { addEnglishTexts } from './i18n';
import { enAdmin } from './locales/en.admin';

// Imported for its effect by the administrators' lazily loaded screens: their English texts join the
// catalogue when the screen's code arrives, not with the feed's bundle.
addEnglishTexts(enAdmin);
