import '@testing-library/jest-dom/vitest';

import { cleanup, configure } from '@testing-library/react';

import { client } from '../shared/api/generated/client.gen';
import { reloadFilterState } from '../shared/filters/filterState';

// CI runs on two cores shared with the rest of the suite (and 5 s was seen to run out under load):
// give async queries room before failing.
configure({ asyncUtilTimeout: 15_000 });

// Node's fetch needs absolute URLs; in the browser the client calls the page's own origin.
client.setConfig({ baseUrl: 'http://touratlas.test' });

// Mantine reads media queries and element sizes, which jsdom does not implement.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList,
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub;
// jsdom has no FontFaceSet; Mantine's autosized Textarea listens to it for a font that arrives late.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
}
window.HTMLElement.prototype.scrollIntoView = () => undefined;

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  reloadFilterState(); // the filters live in localStorage: each test starts from the defaults
});
