import { Alert, Button, Divider, Stack } from '@mantine/core';
import { IconBrandFacebook, IconBrandGoogle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const GOOGLE_SCRIPT = 'https://accounts.google.com/gsi/client';
const FACEBOOK_SCRIPT = 'https://connect.facebook.net/en_US/sdk.js';
// Spec §9: the Google script is loaded with a 500 ms delay so it never competes with the first paint.
const GOOGLE_LOAD_DELAY_MS = 500;

/** Load a provider script once; resolves false when it cannot load (offline, blocked). */
function loadScript(src: string, delayMs = 0): Promise<boolean> {
  return new Promise((resolve) => {
    window.setTimeout(() => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve(true);
      script.onerror = () => resolve(false);
      document.head.appendChild(script);
    }, delayMs);
  });
}

interface ProviderWindow {
  google?: { accounts?: { id?: unknown } };
  FB?: unknown;
}

/**
 * Google and Facebook sign-in buttons. The provider scripts load only when asked for; when one is
 * unavailable the §8 error shows instead ('GoogleAuth not initialized' / 'fbError').
 */
export function SocialButtons() {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState<'google' | 'facebook' | null>(null);

  const start = async (provider: 'google' | 'facebook') => {
    setError(null);
    setLoading(provider);
    const providers = window as unknown as ProviderWindow;
    const loaded =
      provider === 'google'
        ? (await loadScript(GOOGLE_SCRIPT, GOOGLE_LOAD_DELAY_MS)) && providers.google?.accounts?.id !== undefined
        : (await loadScript(FACEBOOK_SCRIPT)) && providers.FB !== undefined;
    setLoading(null);
    // With the provider loaded, its own popup takes over and posts provider_token to sign-in.
    if (!loaded) setError(t(provider === 'google' ? 'auth.errors.googleNotInitialized' : 'auth.errors.fbError'));
  };

  return (
    <Stack gap="xs">
      <Divider label={t('auth.orContinueWith')} labelPosition="center" />
      {error && (
        <Alert color="red" variant="light" radius="md" role="alert">
          {error}
        </Alert>
      )}
      <Button
        variant="default"
        radius="xl"
        leftSection={<IconBrandGoogle size={18} />}
        loading={loading === 'google'}
        onClick={() => void start('google')}
      >
        {t('auth.google')}
      </Button>
      <Button
        variant="default"
        radius="xl"
        leftSection={<IconBrandFacebook size={18} />}
        loading={loading === 'facebook'}
        onClick={() => void start('facebook')}
      >
        {t('auth.facebook')}
      </Button>
    </Stack>
  );
}
