import { firstUseLoader, OnFirstUse } from '../ui/OnFirstUse';
import { LanguageButton } from './LanguageButton';

// The menu (Mantine's Menu and floating-ui) is fetched on first use.
const languageMenu = firstUseLoader(async () => (await import('./LanguageMenu')).LanguageMenu);

/** The language list of spec §1; the choice is kept in localStorage `localise` by the i18n setup. */
export function LanguagePicker() {
  return (
    <OnFirstUse
      loader={languageMenu}
      light={(intent) => <LanguageButton aria-haspopup="menu" aria-expanded={false} {...intent} />}
      full={(LanguageMenu, openAtStart) => <LanguageMenu defaultOpened={openAtStart} />}
    />
  );
}
