import { addEnglishTexts } from './i18n';
import { enManage } from './locales/en.manage';

// Imported for its effect by the lazily loaded screens where members manage things (the media form,
// Manage Media, the creator profile and settings, plans and billing, host requests, the password reset):
// their English texts join the catalogue when the screen's code arrives, not with the feed's bundle.
addEnglishTexts(enManage);
