import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';

import { renderWithApp } from '../../testing/render';
import { FormDialog } from '../ui/FormDialog';
import { ManageDialogFrame } from './ManageDialogFrame';

function Dialogs({ closeManage, closeForm }: { closeManage: () => void; closeForm: () => void }) {
  const [formOpen, setFormOpen] = useState(true);
  return (
    <ManageDialogFrame opened onClose={closeManage} title="Manage">
      <p>dashboard</p>
      <FormDialog
        opened={formOpen}
        onClose={() => {
          closeForm();
          setFormOpen(false);
        }}
        title="Edit"
        size="lg"
      >
        <input aria-label="Title" />
      </FormDialog>
    </ManageDialogFrame>
  );
}

describe('Escape over a manage dialog', () => {
  it('closes only the form above it, and the dashboard once the form is gone', async () => {
    const closeManage = vi.fn();
    const closeForm = vi.fn();
    renderWithApp(<Dialogs closeManage={closeManage} closeForm={closeForm} />);
    fireEvent.keyDown(await screen.findByLabelText('Title'), { key: 'Escape' });
    expect(closeForm).toHaveBeenCalledTimes(1);
    expect(closeManage).not.toHaveBeenCalled();

    await waitFor(() => expect(screen.queryByLabelText('Title')).not.toBeInTheDocument());
    fireEvent.keyDown(screen.getByText('dashboard'), { key: 'Escape' });
    expect(closeManage).toHaveBeenCalledTimes(1);
  });
});
