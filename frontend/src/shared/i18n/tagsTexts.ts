import { addEnglishTexts } from './i18n';
import { enTags } from './locales/en.tags';

// Imported for its effect by the lazily loaded Popular tags page: its English texts join the
// catalogue when the page's code arrives, not with the feed's bundle.
addEnglishTexts(enTags);
