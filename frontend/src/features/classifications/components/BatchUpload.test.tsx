import { fireEvent, screen, waitFor, within } from '@testing-library/react';

import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi, type StubbedCall } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { BatchUpload } from './BatchUpload';

const UPLOAD = 'POST /v2/categories/admin-batch-upload';

const BAD_REPORT = {
  message: '1 row failed: nothing was applied',
  applied: false,
  dry_run: true,
  created: 1,
  updated: 0,
  errors: 1,
  report: [
    { row: 2, status: 'created', message: 'Would create the category “Lighthouses”', field: null, kind: 'category', id: null },
    { row: 3, status: 'error', message: 'No category named “Lighthuoses”', field: 'category', kind: 'subcategory', id: null },
  ],
};

const GOOD_REPORT = { ...BAD_REPORT, message: 'Every row is valid', created: 2, errors: 0, report: [BAD_REPORT.report[0], { ...BAD_REPORT.report[1], status: 'created', message: 'Would create', field: null }] };

const CONTENT = 'kind,name\ncategory,Lighthouses\n';

function pickFile(name = 'rows.csv') {
  const input = document.querySelector('input[type=file]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [new File([CONTENT], name, { type: 'text/csv' })] } });
}

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '1', is_admin: true }));
});

describe('batch upload', () => {
  it('checks the file first, marks the bad rows with their messages and does not offer to apply it', async () => {
    const api = stubApi({ [UPLOAD]: { body: BAD_REPORT } });
    renderWithApp(<BatchUpload />);
    expect(screen.getByTestId('batch-apply')).toBeDisabled();
    pickFile();
    fireEvent.click(screen.getByTestId('batch-check'));

    const report = await screen.findByTestId('batch-report');
    expect(report).toHaveAttribute('data-phase', 'refused');
    expect(screen.getByTestId('batch-outcome')).toHaveTextContent('Some rows are wrong: nothing was applied');
    const rows = screen.getAllByTestId('batch-row');
    expect(rows.map((row) => row.getAttribute('data-status'))).toEqual(['created', 'error']);
    expect(within(rows[1]!).getByTestId('batch-row-message')).toHaveTextContent('No category named “Lighthuoses”');
    expect(rows[1]).toHaveTextContent('Column: category');
    expect(screen.getByTestId('batch-apply')).toBeDisabled();

    // The upload was a dry run of the picked file.
    const [call] = api.callsTo(UPLOAD) as [StubbedCall];
    const body = call.body as Record<string, unknown>;
    expect(body.dry_run).toBe('true');
    // (jsdom's File reaches Node's FormData as text: only its presence is checked here; the e2e test sends a real one.)
    expect(body.file).toBeDefined();

    // Only the bad rows, on request.
    fireEvent.click(screen.getByTestId('batch-only-errors'));
    expect(screen.getAllByTestId('batch-row').map((row) => row.getAttribute('data-status'))).toEqual(['error']);
  });

  it('applies a file only after a clean dry run, and a new pick asks for a new check', async () => {
    const api = stubApi({
      [UPLOAD]: (call) => {
        const dryRun = (call.body as Record<string, unknown>).dry_run === 'true';
        return { body: dryRun ? GOOD_REPORT : { ...GOOD_REPORT, message: 'Applied 2 rows', applied: true, dry_run: false } };
      },
    });
    renderWithApp(<BatchUpload />);
    pickFile();
    fireEvent.click(screen.getByTestId('batch-check'));
    expect(await screen.findByTestId('batch-report')).toHaveAttribute('data-phase', 'checked');
    expect(screen.getByTestId('batch-apply')).toBeEnabled();

    pickFile('other.csv');
    expect(screen.queryByTestId('batch-report')).not.toBeInTheDocument();
    expect(screen.getByTestId('batch-apply')).toBeDisabled();
    fireEvent.click(screen.getByTestId('batch-check'));
    await screen.findByTestId('batch-report');
    fireEvent.click(screen.getByTestId('batch-apply'));

    await waitFor(() => expect(screen.getByTestId('batch-report')).toHaveAttribute('data-phase', 'applied'));
    expect(screen.getByTestId('batch-outcome')).toHaveTextContent('The file has been applied');
    expect(screen.getByTestId('batch-outcome')).toHaveTextContent('2 created, 0 updated');
    expect(api.callsTo(UPLOAD).map((call) => (call.body as Record<string, unknown>).dry_run)).toEqual(['true', 'true', 'false']);
  });

  it('refuses a file that is not CSV or XLSX without sending it, and shows a whole-file refusal on the file', async () => {
    const api = stubApi({ [UPLOAD]: { status: 400, body: { message: 'Save the CSV as UTF-8', fields: { file: 'Save the CSV as UTF-8' } } } });
    renderWithApp(<BatchUpload />);
    pickFile('rows.pdf');
    fireEvent.click(screen.getByTestId('batch-check'));
    expect(screen.getByText('Pick a CSV or XLSX file', { selector: '.mantine-InputWrapper-error' })).toBeInTheDocument();
    expect(api.callsTo(UPLOAD)).toHaveLength(0);

    pickFile('rows.csv');
    fireEvent.click(screen.getByTestId('batch-check'));
    expect(await screen.findByText('Save the CSV as UTF-8')).toBeInTheDocument();
    expect(screen.queryByTestId('batch-report')).not.toBeInTheDocument();
  });
});
