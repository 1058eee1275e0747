import { firstUseLoader, OnFirstUse } from '../../../shared/ui/OnFirstUse';
import { FiltersButton, FiltersCount } from './FiltersButton';

// The popover (or the phone's sheet) and the form are fetched on first use.
const filtersPanel = firstUseLoader(async () => (await import('./FiltersPanel')).FiltersPanel);

/** The filters dropdown of the top bar (spec §2): its button at once, the panel when the visitor reaches for it. */
export function FiltersDropdown() {
  return (
    <OnFirstUse
      loader={filtersPanel}
      light={(intent) => (
        <FiltersCount>
          <FiltersButton opened={false} {...intent} />
        </FiltersCount>
      )}
      full={(FiltersPanel, openAtStart) => <FiltersPanel defaultOpened={openAtStart} />}
    />
  );
}
