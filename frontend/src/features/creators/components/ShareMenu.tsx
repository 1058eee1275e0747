import { Button, Menu } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconBrandFacebook, IconBrandLinkedin, IconBrandWhatsapp, IconBrandX, IconCheck, IconLink, IconMail, IconShare } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { recordShare } from '../api/creatorProfile';

interface ShareTarget {
  channel: string;
  label: string;
  icon: ReactNode;
  href: (url: string, text: string) => string;
}

const TARGETS: ShareTarget[] = [
  { channel: 'twitter', label: 'X', icon: <IconBrandX size={16} />, href: (url, text) => `https://x.com/intent/post?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}` },
  { channel: 'facebook', label: 'Facebook', icon: <IconBrandFacebook size={16} />, href: (url) => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}` },
  { channel: 'linkedin', label: 'LinkedIn', icon: <IconBrandLinkedin size={16} />, href: (url) => `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}` },
  { channel: 'whatsapp', label: 'WhatsApp', icon: <IconBrandWhatsapp size={16} />, href: (url, text) => `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}` },
];

/**
 * Share the creator page: copy its link (the button reads 'Copied', spec §4), the phone's own share
 * sheet where there is one, or a social network. Every share is counted (POST post_shares).
 */
export function ShareMenu({ creatorId, title }: { creatorId: number; title: string }) {
  const { t } = useTranslation();
  const clipboard = useClipboard({ timeout: 2000 });
  // The address without filters or view: a share is of the creator, not of the visitor's filters.
  const url = `${window.location.origin}${window.location.pathname}`;
  const nativeShare = typeof navigator.share === 'function';

  const copy = () => {
    clipboard.copy(url);
    void recordShare(creatorId, 'link');
  };
  const shareNatively = async () => {
    try {
      await navigator.share({ title, url });
      void recordShare(creatorId, 'native');
    } catch {
      // The visitor closed the sheet: nothing was shared.
    }
  };

  return (
    <Menu position="bottom-end" radius="md" shadow="md" withinPortal>
      <Menu.Target>
        <Button variant="default" radius="xl" px={16} leftSection={<IconShare size={16} aria-hidden="true" />} data-testid="creator-share">
          {t('creatorPage.share')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="creator-share-menu">
        <Menu.Item
          leftSection={clipboard.copied ? <IconCheck size={16} /> : <IconLink size={16} />}
          onClick={copy}
          closeMenuOnClick={false}
          data-testid="creator-copy-link"
        >
          {clipboard.copied ? t('creatorPage.copied') : t('creatorPage.copyLink')}
        </Menu.Item>
        {nativeShare && (
          <Menu.Item leftSection={<IconShare size={16} />} onClick={() => void shareNatively()}>
            {t('creatorPage.shareVia')}
          </Menu.Item>
        )}
        <Menu.Divider />
        {TARGETS.map((target) => (
          <Menu.Item
            key={target.channel}
            component="a"
            href={target.href(url, title)}
            target="_blank"
            rel="noopener noreferrer"
            leftSection={target.icon}
            onClick={() => void recordShare(creatorId, target.channel)}
          >
            {target.label}
          </Menu.Item>
        ))}
        <Menu.Item
          component="a"
          href={`mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(url)}`}
          leftSection={<IconMail size={16} />}
          onClick={() => void recordShare(creatorId, 'email')}
        >
          {t('creatorPage.email')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
