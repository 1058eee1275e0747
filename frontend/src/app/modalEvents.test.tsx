import { modals } from '@mantine/modals';
import { screen } from '@testing-library/react';

import { renderWithApp } from '../testing/render';

describe('dialogs asked for before the modals host arrives', () => {
  it('open once it is there', async () => {
    // The host is fetched after the first render: this call comes before it listens.
    modals.open({ title: 'Early', children: <p>Asked for before the host listened</p> });
    renderWithApp(<p>page</p>);
    expect(await screen.findByText('Asked for before the host listened')).toBeInTheDocument();
    modals.closeAll();
  });
});
