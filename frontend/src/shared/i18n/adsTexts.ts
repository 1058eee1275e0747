import { addEnglishTexts } from './i18n';
import { enAds } from './locales/en.ads';

// Imported for its effect by Manage Ads and the ad form (lazily loaded): their English texts join the
// catalogue when the screen's code arrives, not with the feed's bundle.
addEnglishTexts(enAds);
