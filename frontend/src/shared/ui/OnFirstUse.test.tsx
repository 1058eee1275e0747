import { act, fireEvent, render, screen } from '@testing-library/react';
import { useLayoutEffect, useRef } from 'react';

import { firstUseLoader, OnFirstUse } from './OnFirstUse';

function Full({ openAtStart }: { openAtStart: boolean }) {
  return (
    <button type="button" data-testid="full" data-open={openAtStart}>
      menu
    </button>
  );
}

/** A loader whose download the test finishes by hand. */
function controlledLoader() {
  let finish: (component: typeof Full) => void = () => undefined;
  const importer = vi.fn(() => new Promise<typeof Full>((resolve) => (finish = resolve)));
  return { loader: firstUseLoader(importer), importer, finish: (component: typeof Full) => act(async () => finish(component)) };
}

function Control({ loader }: { loader: ReturnType<typeof controlledLoader>['loader'] }) {
  return (
    <OnFirstUse
      loader={loader}
      light={(intent) => (
        <button type="button" data-testid="light" {...intent}>
          menu
        </button>
      )}
      full={(Loaded, openAtStart) => <Loaded openAtStart={openAtStart} />}
    />
  );
}

describe('a control fetched on first use', () => {
  it('draws the stand-in and fetches nothing until the visitor reaches for it', async () => {
    const { loader, importer, finish } = controlledLoader();
    render(<Control loader={loader} />);
    expect(screen.getByTestId('light')).toBeInTheDocument();
    expect(importer).not.toHaveBeenCalled();

    fireEvent.pointerEnter(screen.getByTestId('light'));
    fireEvent.focus(screen.getByTestId('light'));
    expect(importer).toHaveBeenCalledTimes(1); // once, however many signs of intent
    await finish(Full);
    expect(screen.getByTestId('full')).toHaveAttribute('data-open', 'false'); // hovered, not clicked
  });

  it('opens at once when the stand-in was clicked, and takes over its focus', async () => {
    const { loader, finish } = controlledLoader();
    render(<Control loader={loader} />);
    screen.getByTestId('light').focus();
    fireEvent.click(screen.getByTestId('light'));
    await finish(Full);
    expect(screen.getByTestId('full')).toHaveAttribute('data-open', 'true');
    expect(screen.getByTestId('full')).toHaveFocus();
  });

  it('leaves the focus where the real control put it (an opened menu focuses its first item)', async () => {
    function FocusesItsItem() {
      const item = useRef<HTMLButtonElement>(null);
      useLayoutEffect(() => item.current?.focus(), []);
      return (
        <>
          <button type="button" data-testid="full">
            menu
          </button>
          <button type="button" ref={item} data-testid="item">
            first item
          </button>
        </>
      );
    }
    const { loader, finish } = controlledLoader();
    render(<Control loader={loader} />);
    screen.getByTestId('light').focus();
    fireEvent.click(screen.getByTestId('light'));
    await finish(FocusesItsItem);
    expect(screen.getByTestId('item')).toHaveFocus();
  });

  it('draws the real control at once on a later mount (a component is not taken for a state initializer)', async () => {
    const { loader, finish } = controlledLoader();
    const first = render(<Control loader={loader} />);
    fireEvent.pointerEnter(screen.getByTestId('light'));
    await finish(Full);
    first.unmount();

    render(<Control loader={loader} />);
    expect(screen.getByTestId('full')).toHaveAttribute('data-open', 'false');
    expect(screen.queryByTestId('light')).not.toBeInTheDocument();
  });

  it('keeps the stand-in after a failed download and tries again on the next intent', async () => {
    const importer = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(Full);
    render(<Control loader={firstUseLoader(importer)} />);
    await act(async () => fireEvent.pointerEnter(screen.getByTestId('light')));
    expect(screen.getByTestId('light')).toBeInTheDocument();

    await act(async () => fireEvent.pointerEnter(screen.getByTestId('light')));
    expect(importer).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('full')).toBeInTheDocument();
  });
});
