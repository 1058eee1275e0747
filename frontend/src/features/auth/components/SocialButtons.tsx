import { Alert, Box, Button, Divider, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBrandFacebook, IconBrandGoogle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { errorMessage } from '../../../shared/api/apiError';
import { paths } from '../../../shared/routing/paths';
import { continueWithProvider, type SocialProvider } from '../model/authActions';
import { facebookAccessToken, loadFacebook, loadGoogle } from '../model/socialProviders';

/** The widest Google allows for its button; ours follows the column it sits in. */
const GOOGLE_BUTTON_MAX_WIDTH = 400;

/**
 * Google and Facebook sign-in. When a provider is configured its SDK loads (Google after 500 ms,
 * spec §9) and its token goes to sign-in, or to one-click sign-up for a new identity. A provider that
 * is not configured or cannot load answers with the §8 error ('GoogleAuth not initialized' / 'fbError').
 */
export function SocialButtons() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: ({ provider, token }: { provider: SocialProvider; token: string }) => continueWithProvider(provider, token),
    onMutate: () => setError(null),
    onSuccess: ({ created }) => {
      notifications.show({ message: t(created ? 'auth.signedUp' : 'auth.signedIn'), color: 'teal' });
      void navigate(paths.home);
    },
    onError: (failure) => setError(errorMessage(failure, t('auth.errors.generic'))),
  });
  const googleRendered = useGoogleButton((token) => mutation.mutate({ provider: 'google', token }));
  const [facebookLoading, setFacebookLoading] = useState(false);

  const startFacebook = async () => {
    setError(null);
    setFacebookLoading(true);
    const api = await loadFacebook();
    try {
      if (!api) throw new Error('fbError');
      mutation.mutate({ provider: 'facebook', token: await facebookAccessToken(api) });
    } catch {
      setError(t('auth.errors.fbError'));
    } finally {
      setFacebookLoading(false);
    }
  };

  return (
    <Stack gap="xs" data-testid="social-buttons">
      <Divider label={t('auth.orContinueWith')} labelPosition="center" />
      {error && (
        <Alert color="red" variant="light" radius="md" role="alert">
          {error}
        </Alert>
      )}
      <Box ref={googleRendered.containerRef} display={googleRendered.ready ? 'flex' : 'none'} style={{ justifyContent: 'center' }} />
      {!googleRendered.ready && (
        <Button
          variant="default"
          radius="xl"
          leftSection={<IconBrandGoogle size={18} />}
          loading={googleRendered.loading || (mutation.isPending && mutation.variables.provider === 'google')}
          onClick={() => setError(t('auth.errors.googleNotInitialized'))}
        >
          {t('auth.google')}
        </Button>
      )}
      <Button
        variant="default"
        radius="xl"
        leftSection={<IconBrandFacebook size={18} />}
        loading={facebookLoading || (mutation.isPending && mutation.variables.provider === 'facebook')}
        onClick={() => void startFacebook()}
      >
        {t('auth.facebook')}
      </Button>
    </Stack>
  );
}

/**
 * Google's own button (its popup can only be opened from it), drawn into our container once the SDK
 * is ready. Until then, or without it, our look-alike button stands in and explains the failure.
 */
function useGoogleButton(onCredential: (token: string) => void) {
  const { i18n } = useTranslation();
  const containerRef = useRef<HTMLDivElement>(null);
  const callback = useRef(onCredential);
  useEffect(() => {
    callback.current = onCredential;
  }, [onCredential]);
  const [state, setState] = useState<'loading' | 'ready' | 'unavailable'>('loading');

  useEffect(() => {
    let active = true;
    void loadGoogle((token) => callback.current(token)).then((api) => {
      const container = containerRef.current;
      if (!active) return;
      if (!api || !container) {
        setState('unavailable');
        return;
      }
      const width = Math.min(GOOGLE_BUTTON_MAX_WIDTH, container.parentElement?.clientWidth ?? GOOGLE_BUTTON_MAX_WIDTH);
      api.renderButton(container, { type: 'standard', theme: 'outline', size: 'large', shape: 'pill', text: 'continue_with', width, locale: i18n.language });
      setState('ready');
    });
    return () => {
      active = false;
    };
  }, [i18n.language]);

  return { containerRef, ready: state === 'ready', loading: state === 'loading' };
}
