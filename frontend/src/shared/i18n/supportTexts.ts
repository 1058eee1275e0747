import { addEnglishTexts } from './i18n';
import { enSupport } from './locales/en.support';

// Imported for its effect by the Updates screen and the help tool (lazily loaded): their English texts
// join the catalogue when the screen's code arrives, not with the feed's bundle.
addEnglishTexts(enSupport);
