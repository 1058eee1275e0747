import { createStore } from '../lib/store';

/**
 * Screens that open as dialogs or panels (spec §2 "Modals and other screens") are reached from the
 * menu and the top bar. The feature that owns a screen registers what opening it means; the menu
 * only asks for the action, so it needs to know no feature, and shows which ones are available.
 */
export type AppAction =
  | 'addMedia'
  | 'updates'
  | 'moderation'
  | 'manageMedia'
  | 'manageAds'
  | 'analytics'
  | 'adsAnalytics'
  | 'profile'
  | 'settings'
  | 'helpFeedback'
  | 'bugReport'
  | 'savedTours';

type Handler = () => void;

const handlers = new Map<AppAction, Handler>();
const available = createStore<ReadonlySet<AppAction>>(new Set());

function changed(): void {
  available.set(new Set(handlers.keys()));
}

/** Register the opener of a screen; returns the function that unregisters it. */
export function registerAppAction(action: AppAction, handler: Handler): () => void {
  handlers.set(action, handler);
  changed();
  return () => {
    if (handlers.get(action) === handler) {
      handlers.delete(action);
      changed();
    }
  };
}

/** Open the screen behind an action; false when no feature provides it in this build. */
export function runAppAction(action: AppAction): boolean {
  const handler = handlers.get(action);
  if (!handler) return false;
  handler();
  return true;
}

export function useAvailableAppActions(): ReadonlySet<AppAction> {
  return available.useStore();
}
