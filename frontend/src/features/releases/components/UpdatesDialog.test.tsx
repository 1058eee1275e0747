import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import type { ReleaseOut } from '../../../shared/api/generated/types.gen';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { UpdatesDialog } from './UpdatesDialog';

const NOTES = '/v2/releases/release-notes';

function release(overrides: Partial<ReleaseOut> = {}): ReleaseOut {
  return {
    id: 3,
    releaseName: 'Spring update',
    releaseVersion: 'Version 2.4.0',
    releaseDate: '2026-03-02',
    releaseTime: '10:30',
    listNewItems: [{ id: 1, title: 'Updates page', type: 'New', description: 'Read what changed' }],
    listImprovedItems: [],
    listFixedItems: [{ id: 2, title: 'Saved tours list', type: 'Fixed', description: null }],
    listComingSoonItems: [{ id: 3, title: 'Offline tours', type: 'Coming Soon', description: null }],
    ...overrides,
  };
}

function page(data: ReleaseOut[]) {
  return { body: { data, total_items: data.length, limit: 100, offset: 0 } };
}

describe('the Updates screen', () => {
  it('shows the release notes by section, without edit controls for a user', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '7' }));
    stubApi({ [`GET ${NOTES}`]: page([release()]) });
    renderWithApp(<UpdatesDialog opened onClose={() => undefined} />);

    const notes = await screen.findByTestId('release');
    expect(within(notes).getByRole('heading', { name: 'Spring update' })).toBeInTheDocument();
    expect(within(notes).getByRole('region', { name: 'New' })).toHaveTextContent('Updates pageRead what changed');
    expect(within(notes).getByRole('region', { name: 'Coming Soon' })).toHaveTextContent('Offline tours');
    expect(within(notes).queryByRole('region', { name: 'Improved' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('release-add')).not.toBeInTheDocument();
    expect(within(notes).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('says so when there are no release notes, and when they fail to load', async () => {
    stubApi({ [`GET ${NOTES}`]: page([]) });
    const { unmount } = renderWithApp(<UpdatesDialog opened onClose={() => undefined} />);
    expect(await screen.findByText('No release notes yet.')).toBeInTheDocument();
    unmount();

    stubApi({ [`GET ${NOTES}`]: { status: 500, body: { message: 'Something went wrong' } } });
    renderWithApp(<UpdatesDialog opened onClose={() => undefined} />);
    expect(await screen.findByText('The release notes could not be loaded.')).toBeInTheDocument();
  });

  it('lets an admin publish a release with its items, checking the fields first', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '1', is_admin: true }));
    const api = stubApi({
      [`GET ${NOTES}`]: page([]),
      [`POST ${NOTES}`]: { body: { message: 'Saved', data: release(), announced_version: '2.4.0' } },
    });
    renderWithApp(<UpdatesDialog opened onClose={() => undefined} />);

    fireEvent.click(await screen.findByTestId('release-add'));
    fireEvent.click(screen.getByTestId('add-listFixedItems'));
    fireEvent.click(screen.getByTestId('release-save'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(3); // name, version, item title
    expect(api.callsTo(`POST ${NOTES}`)).toHaveLength(0);

    fireEvent.change(screen.getByTestId('release-name'), { target: { value: 'Spring update' } });
    fireEvent.change(screen.getByTestId('release-version'), { target: { value: '2.4.0' } });
    fireEvent.change(screen.getByTestId('listFixedItems-title-0'), { target: { value: 'Saved tours list' } });
    fireEvent.click(screen.getByTestId('release-save'));

    await waitFor(() => expect(api.callsTo(`POST ${NOTES}`)).toHaveLength(1));
    expect(api.callsTo(`POST ${NOTES}`)[0]?.body).toMatchObject({
      id: null,
      releaseName: 'Spring update',
      releaseVersion: '2.4.0',
      listNewItems: [],
      listFixedItems: [{ title: 'Saved tours list', description: null }],
    });
    expect(await screen.findByTestId('release-add')).toBeInTheDocument(); // back to the view mode
  });

  it('shows the server’s field message on the field it names', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '1', is_admin: true }));
    stubApi({
      [`GET ${NOTES}`]: page([release()]),
      [`POST ${NOTES}`]: {
        status: 400,
        body: { message: 'A version number has at most 32 characters', fields: { releaseVersion: 'A version number has at most 32 characters' } },
      },
    });
    renderWithApp(<UpdatesDialog opened onClose={() => undefined} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    expect(screen.getByTestId('release-version')).toHaveValue('Version 2.4.0');
    fireEvent.click(screen.getByTestId('release-save'));
    expect(await screen.findByText('A version number has at most 32 characters')).toBeInTheDocument();
  });
});
