import { firstUseLoader, OnFirstUse } from '../../../shared/ui/OnFirstUse';
import { FeedButton } from './FeedButton';

// The menu (Mantine's Menu and floating-ui) is fetched on first use.
const feedMenu = firstUseLoader(async () => (await import('./FeedMenu')).FeedMenu);

/** Which feed the grid and map show (spec §2 feed choices): the button at once, the menu on first use. */
export function FeedSelector() {
  return (
    <OnFirstUse
      loader={feedMenu}
      light={(intent) => <FeedButton aria-haspopup="menu" aria-expanded={false} {...intent} />}
      full={(FeedMenu, openAtStart) => <FeedMenu defaultOpened={openAtStart} />}
    />
  );
}
