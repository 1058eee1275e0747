import { lazy, useEffect, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { useNavigate } from 'react-router';

import { MountWhenOpened } from '../../../shared/ui/MountWhenOpened';
import { type CardTarget, cardTargetOf, rememberGridItem } from './cardLinks';

// Fetched at the first right-click: the grid's first screen carries no menu (Mantine's Menu, floating-ui).
const CardMenu = lazy(async () => ({ default: (await import('./CardMenu')).CardMenu }));

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
    <MountWhenOpened opened={menu !== null}>
      <CardMenu
        at={menu}
        onClose={() => setMenu(null)}
        onOpen={() => menu && open(menu.target)}
        onOpenInNewTab={() => menu && openInNewTab(menu.target)}
      />
    </MountWhenOpened>
  );

  return { onContextMenu, menu: element };
}
