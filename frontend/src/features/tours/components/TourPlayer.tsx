import { Button, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Player } from '../model/embed';
import classes from './TourPage.module.css';

interface TourPlayerProps {
  title: string;
  player: Player | null;
  poster: string | null;
  host: string;
  link: string;
}

// The provider's player runs its own scripts in its own origin; it may go fullscreen, use the
// device's motion sensors for VR and open the provider's pages, and nothing more.
const SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-presentation allow-forms';
const ALLOW = 'fullscreen; xr-spatial-tracking; gyroscope; accelerometer; magnetometer; autoplay; encrypted-media; picture-in-picture';

/**
 * The provider's embedded player (spec §2 tour page). It starts on the preview picture and loads
 * the provider only when asked: players are heavy, and many visitors only read about the place.
 */
export function TourPlayer({ title, player, poster, host, link }: TourPlayerProps) {
  const { t } = useTranslation();
  const [started, setStarted] = useState(false);
  // A tour of this very site would escape the sandbox (same origin): it is only linked.
  const embeddable = player !== null && new URL(player.src).origin !== window.location.origin;

  if (started && embeddable && player) {
    return (
      <div className={classes.player} data-testid="tour-player">
        {player.kind === 'video' ? (
          <video className={classes.frame} src={player.src} controls playsInline autoPlay poster={poster ?? undefined} aria-label={title} />
        ) : (
          <iframe
            className={classes.frame}
            src={player.src}
            title={t('tourPage.playerTitle', { title })}
            sandbox={SANDBOX}
            allow={ALLOW}
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
          />
        )}
      </div>
    );
  }

  return (
    <div className={classes.player} data-testid="tour-player">
      {poster && <img className={classes.poster} src={poster} alt="" />}
      <div className={classes.posterShade} />
      <Stack className={classes.posterActions} align="center" gap="sm">
        {embeddable ? (
          <Button size="lg" radius="xl" leftSection={<IconPlayerPlayFilled size={20} />} onClick={() => setStarted(true)} data-testid="start-tour">
            {t('tourPage.start')}
          </Button>
        ) : (
          <Text c="white" fw={600} ta="center" maw={420}>
            {t('tourPage.noEmbed', { host })}
          </Text>
        )}
        <Button
          component="a"
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          variant="white"
          color="dark"
          radius="xl"
          size="xs"
          rightSection={<IconExternalLink size={14} />}
        >
          {t('tourPage.openOnHost', { host })}
        </Button>
      </Stack>
    </div>
  );
}
