import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import type { BugReportOut } from '../../../shared/api/generated/types.gen';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { FeedbackList } from './FeedbackList';

const BUGS = '/v2/support/bug-report';

function report(overrides: Partial<BugReportOut> = {}): BugReportOut {
  return {
    id: 8,
    userid: 7,
    username: 'ann_r',
    title: 'Grey map',
    description: 'The map stays grey after zooming in.',
    page_url: 'https://touratlas.test/map',
    user_agent: 'Phone',
    status: 'open',
    images: [{ path: '/uploads/bug-images/abc.png', content_type: 'image/png' }],
    created_at: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

describe('the bug reports tab', () => {
  it('lists the reports with their screenshots and saves a new status', async () => {
    const api = stubApi({
      [`GET ${BUGS}`]: { body: { data: [report()], total_items: 1, limit: 20, offset: 0, known_bugs_url: '' } },
      [`PUT ${BUGS}`]: { body: { message: 'Saved', data: report({ status: 'fixed' }) } },
    });
    renderWithApp(<FeedbackList kind="bugs" />);

    const row = await screen.findByTestId('bug-report-row');
    expect(within(row).getByRole('heading', { name: 'Grey map' })).toBeInTheDocument();
    expect(row).toHaveTextContent('From ann_r');
    expect(within(row).getByRole('img', { name: 'Screenshot 1' })).toHaveAttribute('src', '/uploads/bug-images/abc.png');

    const select = within(row).getByTestId('bug-status');
    expect(select).toHaveValue('Open');
    fireEvent.click(select);
    await waitFor(() => expect(select).toHaveAttribute('aria-expanded', 'true'));
    const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '');
    fireEvent.click(within(listbox!).getByRole('option', { name: 'Fixed', hidden: true }));
    await waitFor(() => expect(api.callsTo(`PUT ${BUGS}`).map((call) => call.body)).toEqual([{ id: 8, status: 'fixed' }]));
  });

  it('says when there is nothing to moderate and when the list fails', async () => {
    stubApi({ 'GET /v2/support/feature-request': { body: { data: [], total_items: 0, limit: 20, offset: 0 } } });
    const { unmount } = renderWithApp(<FeedbackList kind="features" />);
    expect(await screen.findByText('Nothing here yet.')).toBeInTheDocument();
    unmount();

    stubApi({ [`GET ${BUGS}`]: { status: 500, body: { message: 'Something went wrong' } } });
    renderWithApp(<FeedbackList kind="bugs" />);
    expect(await screen.findByText('This list could not be loaded.')).toBeInTheDocument();
  });
});
