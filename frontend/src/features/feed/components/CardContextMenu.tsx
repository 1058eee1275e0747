import { Menu } from '@mantine/core';
import { IconExternalLink, IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { type CardTarget, cardTargetOf, rememberGridItem } from './cardLinks';

interface OpenMenu {
  target: CardTarget;
  x: number;
  y: number;
}

/**
 * The cards' context menu (spec §2): Open and Open in new tab. One menu for the whole grid, placed
 * where the visitor right-clicked (or under the card when the keyboard's menu key opened it).
 */
export function useCardContextMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [menu, setMenu] = useState<OpenMenu | null>(null);

  useEffect(() => {
    if (!menu) return undefined;
    // The menu belongs to the spot that was clicked: scrolling the page away closes it.
    const close = () => setMenu(null);
    window.addEventListener('scroll', close, { passive: true });
    return () => window.removeEventListener('scroll', close);
  }, [menu]);

  const onContextMenu = (event: ReactMouseEvent<HTMLElement>) => {
    const target = cardTargetOf(event.target as Element);
    if (!target) return;
    event.preventDefault();
    const fromKeyboard = event.clientX === 0 && event.clientY === 0;
    const box = (event.target as Element).getBoundingClientRect();
    setMenu({ target, x: fromKeyboard ? box.left + 16 : event.clientX, y: fromKeyboard ? box.top + 16 : event.clientY });
  };

  const open = ({ itemId, href, external }: CardTarget) => {
    rememberGridItem(itemId);
    if (external) window.location.assign(href);
    else void navigate(href);
  };

  const openInNewTab = ({ itemId, href }: CardTarget) => {
    rememberGridItem(itemId);
    window.open(href, '_blank', 'noopener');
  };

  const element = (
    <Menu opened={menu !== null} onChange={(opened) => !opened && setMenu(null)} position="bottom-start" offset={2} shadow="lg" radius="md" width={200}>
      <Menu.Target>
        <div aria-hidden="true" style={{ position: 'fixed', left: menu?.x ?? 0, top: menu?.y ?? 0, width: 1, height: 1, pointerEvents: 'none' }} />
      </Menu.Target>
      <Menu.Dropdown data-testid="card-context-menu">
        <Menu.Item leftSection={<IconPlayerPlay size={16} />} onClick={() => menu && open(menu.target)}>
          {t('cards.open')}
        </Menu.Item>
        <Menu.Item leftSection={<IconExternalLink size={16} />} onClick={() => menu && openInNewTab(menu.target)}>
          {t('cards.openInNewTab')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );

  return { onContextMenu, menu: element };
}
