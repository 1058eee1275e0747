import { ActionIcon, Button, CopyButton, Group, Modal, SimpleGrid, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconBrandFacebook,
  IconBrandLinkedin,
  IconBrandPinterest,
  IconBrandTelegram,
  IconBrandWhatsapp,
  IconBrandX,
  IconCheck,
  IconCopy,
  IconMail,
  IconShare,
  type Icon,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

import { useIsMobile } from '../../../shared/layout/breakpoints';
import classes from './TourPage.module.css';

interface ShareTarget {
  channel: string;
  label: string;
  icon: Icon;
  color: string;
  href: (url: string, title: string) => string;
}

const enc = encodeURIComponent;

/** Where a tour can be sent: each network's own share address, opened in a new tab. */
const TARGETS: readonly ShareTarget[] = [
  { channel: 'facebook', label: 'Facebook', icon: IconBrandFacebook, color: '#1877f2', href: (url) => `https://www.facebook.com/sharer/sharer.php?u=${enc(url)}` },
  { channel: 'twitter', label: 'X', icon: IconBrandX, color: '#111111', href: (url, title) => `https://twitter.com/intent/tweet?url=${enc(url)}&text=${enc(title)}` },
  { channel: 'linkedin', label: 'LinkedIn', icon: IconBrandLinkedin, color: '#0a66c2', href: (url) => `https://www.linkedin.com/sharing/share-offsite/?url=${enc(url)}` },
  { channel: 'whatsapp', label: 'WhatsApp', icon: IconBrandWhatsapp, color: '#25d366', href: (url, title) => `https://wa.me/?text=${enc(`${title} ${url}`)}` },
  { channel: 'telegram', label: 'Telegram', icon: IconBrandTelegram, color: '#229ed9', href: (url, title) => `https://t.me/share/url?url=${enc(url)}&text=${enc(title)}` },
  { channel: 'pinterest', label: 'Pinterest', icon: IconBrandPinterest, color: '#e60023', href: (url, title) => `https://pinterest.com/pin/create/button/?url=${enc(url)}&description=${enc(title)}` },
  { channel: 'email', label: 'Email', icon: IconMail, color: '#495057', href: (url, title) => `mailto:?subject=${enc(title)}&body=${enc(url)}` },
];

interface ShareScreenProps {
  opened: boolean;
  onClose: () => void;
  url: string;
  title: string;
  /** Count the share (post_shares) with where it went. */
  onShared: (channel: string) => void;
}

/** Spec §2 share screen: the tour's link with a copy button ('copied', spec §4) and social links. */
export function ShareScreen({ opened, onClose, url, title, onShared }: ShareScreenProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const canShareNatively = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  const shareNatively = () => {
    navigator.share({ title, url }).then(
      () => onShared('native'),
      () => undefined, // the visitor closed the system sheet
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('share.title')} centered radius="lg" size="md" fullScreen={false}>
      <Stack gap="lg" data-testid="share-screen">
        <Text size="sm" c="dimmed" lineClamp={2}>
          {title}
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput label={t('share.link')} value={url} readOnly flex={1} onFocus={(event) => event.currentTarget.select()} data-testid="share-link" />
          <CopyButton value={url} timeout={2500}>
            {({ copied, copy }) => (
              <Button
                radius="md"
                color={copied ? 'teal' : 'brand'}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                onClick={() => {
                  copy();
                  if (!copied) onShared('link');
                }}
                data-testid="share-copy"
                miw={104}
              >
                {copied ? t('share.copied') : t('share.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <div>
          <Text size="sm" fw={600} mb="xs">
            {t('share.via')}
          </Text>
          <SimpleGrid cols={{ base: 4, xs: 4 }} spacing="xs" verticalSpacing="sm">
            {TARGETS.map((target) => (
              <UnstyledButton
                key={target.channel}
                component="a"
                href={target.href(url, title)}
                target="_blank"
                rel="noopener noreferrer"
                className={classes.shareTarget}
                onClick={() => onShared(target.channel)}
                aria-label={t('share.on', { network: target.label })}
              >
                <span className={classes.shareIcon} style={{ background: target.color }}>
                  <target.icon size={22} color="white" aria-hidden="true" />
                </span>
                <Text size="xs" ta="center">
                  {target.label}
                </Text>
              </UnstyledButton>
            ))}
            {mobile && canShareNatively && (
              <UnstyledButton className={classes.shareTarget} onClick={shareNatively} aria-label={t('share.more')}>
                <span className={classes.shareIcon} style={{ background: 'var(--mantine-color-gray-6)' }}>
                  <IconShare size={22} color="white" aria-hidden="true" />
                </span>
                <Text size="xs" ta="center">
                  {t('share.more')}
                </Text>
              </UnstyledButton>
            )}
          </SimpleGrid>
        </div>
      </Stack>
    </Modal>
  );
}

/** The share button of the tour page. */
export function ShareButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('share.title')} withArrow>
      <ActionIcon variant="default" radius="xl" size="xl" onClick={onClick} aria-label={t('share.title')} data-testid="share-button">
        <IconShare size={20} />
      </ActionIcon>
    </Tooltip>
  );
}
