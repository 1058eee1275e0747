import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { ClassificationsPage } from '../pages/ClassificationsPage';
import { CategoriesTab } from './CategoriesTab';

const LIST = 'GET /v2/categories/admin-categories';
const CREATE = 'POST /v2/categories/';
const UPDATE = 'PUT /v2/categories/';

const museums = {
  id: 4,
  name: 'Museums',
  translations: { ru: 'Музеи' },
  image_search: 'a1b2c3d4e5f60718293a4b5c6d7e8f90.png',
  source_image_search: 'cloud',
  icon_path: '/uploads/category-icons/a1b2c3d4e5f60718293a4b5c6d7e8f90.png',
  position: 3,
  is_active: true,
  tours: 12,
};

function page(rows: object[]) {
  return { body: { data: rows, total_items: rows.length, limit: 25, offset: 0 } };
}

function signInAs(admin: boolean) {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '1', is_admin: admin }));
}

describe('categories tab', () => {
  beforeEach(() => signInAs(true));

  it('lists categories with their icon, Russian name and tour count', async () => {
    stubApi({ [LIST]: page([museums]) });
    renderWithApp(<CategoriesTab />);
    const [row] = await screen.findAllByTestId('category-row');
    expect(row).toHaveTextContent('Museums');
    expect(row).toHaveTextContent('Музеи');
    expect(row).toHaveTextContent('12');
    expect(within(row!).getByTestId('category-icon')).toHaveAttribute('src', museums.icon_path);
  });

  it('shows the server’s message on the field it names, and keeps the dialog open', async () => {
    const api = stubApi({
      [LIST]: page([museums]),
      [CREATE]: { status: 409, body: { message: 'A category named “Museums” exists already', fields: { name: 'A category named “Museums” exists already' } } },
    });
    renderWithApp(<CategoriesTab />);
    await screen.findAllByTestId('category-row');
    fireEvent.click(screen.getByTestId('categories-add'));
    const form = await screen.findByTestId('category-form');
    fireEvent.change(within(form).getByTestId('form-name'), { target: { value: 'Museums' } });
    fireEvent.change(within(form).getByTestId('form-name-ru'), { target: { value: 'Музеи' } });
    fireEvent.click(within(form).getByTestId('form-save'));

    const name = within(form).getByTestId('form-name');
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(within(form).getByText('A category named “Museums” exists already')).toBeInTheDocument();
    expect(screen.getByTestId('category-form')).toBeInTheDocument();
    expect(api.callsTo(CREATE)[0]?.body).toEqual({ name: 'Museums', translations: { ru: 'Музеи' }, is_active: true });
  });

  it('asks for a name before sending anything', async () => {
    const api = stubApi({ [LIST]: page([]) });
    renderWithApp(<CategoriesTab />);
    expect(await screen.findByTestId('categories-empty')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('categories-add'));
    const form = await screen.findByTestId('category-form');
    fireEvent.click(within(form).getByTestId('form-save'));
    expect(await within(form).findByText('Enter a name')).toBeInTheDocument();
    expect(api.callsTo(CREATE)).toHaveLength(0);
  });

  it('shows the 409 of deactivating a category that tours use', async () => {
    const refusal = 'The category “Museums” is used by 12 tours: move them first';
    const api = stubApi({ [LIST]: page([museums]), [UPDATE]: { status: 409, body: { message: refusal, fields: { is_active: refusal } } } });
    renderWithApp(<CategoriesTab />);
    const [row] = await screen.findAllByTestId('category-row');
    fireEvent.click(within(row!).getByRole('switch', { name: 'Active: Museums' }));
    expect(await screen.findByTestId('categories-problem')).toHaveTextContent(refusal);
    expect(api.callsTo(UPDATE)[0]?.body).toEqual({ id: 4, is_active: false });
  });
});

describe('classifications page', () => {
  it('tells a signed-in non-admin that only administrators manage classifications', () => {
    signInAs(false);
    stubApi({});
    renderWithApp(<ClassificationsPage />);
    expect(screen.getByTestId('classifications-admins-only')).toHaveTextContent('Only administrators manage the classifications');
    expect(screen.queryByTestId('classifications-page')).not.toBeInTheDocument();
  });

  it('opens the tab the link names', async () => {
    signInAs(true);
    stubApi({ 'GET /v2/categories/admin-tags': page([]), 'GET /v2/categories/admin-tag-embeddings': { body: { message: 'No run yet', data: null } } });
    renderWithApp(<ClassificationsPage />, { path: '/admin/classifications?tab=tags' });
    expect(await screen.findByTestId('tags-empty')).toBeInTheDocument();
    expect(screen.getByTestId('embeddings-state')).toHaveTextContent('No recompute has run yet.');
  });
});
