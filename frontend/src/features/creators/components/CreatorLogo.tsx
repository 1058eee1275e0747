import { Avatar } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import type { CSSProperties } from 'react';

import { type CreatorProfile, logoBackground, logoScale } from '../model/creatorProfile';
import classes from './CreatorShortView.module.css';

/** The logo on its white or black background, at the scale the creator chose (spec §3 img_settings). */
export type LogoSource = Pick<CreatorProfile, 'logo' | 'creator_name'> & { img_settings?: CreatorProfile['img_settings'] | { bgColor?: string; logoScale?: number } | null };

export function CreatorLogo({ profile, size }: { profile: LogoSource; size: number }) {
  const background = logoBackground(profile);
  return (
    <div
      className={classes.logoFrame}
      data-background={background}
      style={{ width: size, height: size, '--logo-scale': logoScale(profile) } as CSSProperties}
      data-testid="creator-logo"
    >
      <Avatar src={profile.logo} size={size} radius={0} alt={profile.creator_name} className={classes.logo}>
        {/* Unknown logos fall back to the anonymous logo (spec §2). */}
        <IconUser size={size / 2} stroke={1.4} />
      </Avatar>
    </div>
  );
}
