import { Menu } from '@mantine/core';
import { IconExternalLink, IconPlayerPlay } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The cards' context menu itself (useCardContextMenu), open while `at` names the spot clicked. */
export function CardMenu({
  at,
  onClose,
  onOpen,
  onOpenInNewTab,
}: {
  at: { x: number; y: number } | null;
  onClose: () => void;
  onOpen: () => void;
  onOpenInNewTab: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu opened={at !== null} onChange={(opened) => !opened && onClose()} position="bottom-start" offset={2} shadow="lg" radius="md" width={200}>
      <Menu.Target>
        <div aria-hidden="true" style={{ position: 'fixed', left: at?.x ?? 0, top: at?.y ?? 0, width: 1, height: 1, pointerEvents: 'none' }} />
      </Menu.Target>
      <Menu.Dropdown data-testid="card-context-menu">
        <Menu.Item leftSection={<IconPlayerPlay size={16} />} onClick={onOpen}>
          {t('cards.open')}
        </Menu.Item>
        <Menu.Item leftSection={<IconExternalLink size={16} />} onClick={onOpenInNewTab}>
          {t('cards.openInNewTab')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
