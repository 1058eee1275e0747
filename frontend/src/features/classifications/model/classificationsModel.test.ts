import { batchFileProblem, batchPhase, batchTemplate, reportRows } from './batch';
import { formFieldErrors, splitFieldErrors, translationsPayload } from './names';

const row = (n: number, status: 'created' | 'updated' | 'error') => ({ row: n, status, message: `row ${n}`, field: null, kind: 'tag', id: null });
const answer = (overrides: Partial<Parameters<typeof batchPhase>[0]>) => ({
  message: '',
  applied: false,
  dry_run: true,
  created: 0,
  updated: 0,
  errors: 0,
  report: [],
  ...overrides,
});

describe('names of a dictionary row', () => {
  it('sends the Russian name of a new row only when one is given', () => {
    expect(translationsPayload({ name: 'Museums', name_ru: ' Музеи ' }, null)).toEqual({ ru: 'Музеи' });
    expect(translationsPayload({ name: 'Museums', name_ru: '  ' }, null)).toBeUndefined();
  });

  it('sends it for a row only when it changed; emptied, it is removed', () => {
    const original = { translations: { ru: 'Музеи' } };
    expect(translationsPayload({ name: 'Museums', name_ru: 'Музеи' }, original)).toBeUndefined();
    expect(translationsPayload({ name: 'Museums', name_ru: 'Музеи мира' }, original)).toEqual({ ru: 'Музеи мира' });
    expect(translationsPayload({ name: 'Museums', name_ru: '' }, original)).toEqual({ ru: '' });
  });

  it('puts the server field names on the form fields', () => {
    expect(formFieldErrors({ camera_name: 'taken', 'translations.ru': 'занято', category_id: 'inactive' })).toEqual({
      name: 'taken',
      name_ru: 'занято',
      category_id: 'inactive',
    });
    expect(splitFieldErrors({ name: 'taken', id: 'No category with id 9' }, ['name', 'name_ru'])).toEqual({
      onFields: { name: 'taken' },
      elsewhere: ['No category with id 9'],
    });
  });
});

describe('batch upload', () => {
  it('tells a clean dry run, a refused file and an applied one apart', () => {
    expect(batchPhase(answer({ created: 2 }))).toBe('checked');
    expect(batchPhase(answer({ created: 1, errors: 1 }))).toBe('refused');
    expect(batchPhase(answer({ applied: true, dry_run: false, created: 2 }))).toBe('applied');
  });

  it('narrows the report to its bad rows when asked', () => {
    const report = [row(2, 'created'), row(3, 'error'), row(4, 'updated')];
    expect(reportRows(report, true).map((item) => item.row)).toEqual([3]);
    expect(reportRows(report, false).map((item) => item.row)).toEqual([2, 3, 4]);
  });

  it('writes templates whose header names the columns the server reads', () => {
    const [header, first] = batchTemplate('tags').split('\n');
    expect(header).toBe('kind,name,name_ru,id,topic_type,topic,description,is_active');
    expect(first?.startsWith('tag,')).toBe(true);
    expect(batchTemplate('categories').split('\n')[0]).toBe('kind,name,name_ru,id,category,is_active');
  });

  it('refuses other files than CSV and XLSX, and files over 2 MB', () => {
    expect(batchFileProblem(new File(['a'], 'tags.csv'))).toBeNull();
    expect(batchFileProblem(new File(['a'], 'tags.XLSX'))).toBeNull();
    expect(batchFileProblem(new File(['a'], 'tags.pdf'))).toBe('type');
    expect(batchFileProblem(new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.csv'))).toBe('size');
  });
});
