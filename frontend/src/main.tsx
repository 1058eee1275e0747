import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/App';
import { installAuthInterceptor } from './shared/api/authInterceptor';
import { installLanguageHeader } from './shared/api/languageHeader';
import { ensureGuestToken } from './shared/api/tokenRenewal';
import { catalogueLoaded, i18n } from './shared/i18n/i18n';

installAuthInterceptor();
installLanguageHeader();
// Guests get their token in the background; calls made meanwhile renew it themselves on 401.
void ensureGuestToken();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// A reader of another language than English waits for its catalogue (one small request) instead of
// seeing the English texts first; for English this resolves at once.
void catalogueLoaded(i18n).finally(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
