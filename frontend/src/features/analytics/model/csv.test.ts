import { ctrPercent, analyticsSections, type ExportLabel } from './analyticsExport';
import { csvCell, csvDocument, csvFileName, csvLines } from './csv';

describe('CSV cells', () => {
  it('quotes what needs quoting, doubling the quotes inside', () => {
    expect(csvCell('Harbour')).toBe('Harbour');
    expect(csvCell('Sea, sun')).toBe('"Sea, sun"');
    expect(csvCell('The "Old" Mill')).toBe('"The ""Old"" Mill"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell('Дом у моря')).toBe('Дом у моря');
  });

  it('keeps numbers and writes nothing for a missing value', () => {
    expect(csvCell(1234)).toBe('1234');
    expect(csvCell(5.23)).toBe('5.23');
    expect(csvCell(null)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('keeps a title that looks like a formula from running in a spreadsheet', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1 tour')).toBe("'+1 tour");
    expect(csvCell('@home')).toBe("'@home");
  });

  it('joins lines with CRLF and sections with an empty line, after a byte order mark', () => {
    expect(csvLines([['a', 1], ['b, c', 2]])).toBe('a,1\r\n"b, c",2');
    const document = csvDocument([
      { title: 'Totals', header: ['Views'], rows: [[3]] },
      { title: 'Per day', header: ['Date', 'Views'], rows: [['2026-11-01', 3]] },
    ]);
    expect(document).toBe('\uFEFFTotals\r\nViews\r\n3\r\n\r\nPer day\r\nDate,Views\r\n2026-11-01,3\r\n');
  });

  it('names the file after the screen and the range', () => {
    expect(csvFileName('tours', { from: '2026-11-01', to: '2026-11-30' })).toBe('touratlas-analytics-2026-11-01_2026-11-30.csv');
    expect(csvFileName('ads', { from: '2026-11-01', to: '2026-11-30' })).toBe('touratlas-ads-analytics-2026-11-01_2026-11-30.csv');
  });
});

describe('the export’s sections', () => {
  const label = (name: ExportLabel) => name.toUpperCase();

  it('writes the totals, every day and every row of the tours', () => {
    const [totals, daily, table] = analyticsSections({
      kind: 'tours',
      totals: { views: 10, likes: 2, saves: 1, shares: 0, follows: 3 },
      points: [{ date: '2026-11-01', counts: { views: 10, likes: 2, saves: 1, shares: 0, follows: 3 } }],
      rows: [{ id: 'g1', title: 'Harbour, north', previewPicture: null, status: 'active', counts: { views: 10, likes: 2, saves: 1, shares: 0 } }],
      label,
    });
    expect(totals!.header).toEqual(['VIEWS', 'LIKES', 'SAVES', 'SHARES', 'FOLLOWS']);
    expect(totals!.rows).toEqual([[10, 2, 1, 0, 3]]);
    expect(daily!.header).toEqual(['DATE', 'VIEWS', 'LIKES', 'SAVES', 'SHARES', 'FOLLOWS']);
    expect(daily!.rows).toEqual([['2026-11-01', 10, 2, 1, 0, 3]]);
    expect(table!.header).toEqual(['ID', 'TITLE', 'STATUS', 'VIEWS', 'LIKES', 'SAVES', 'SHARES']);
    expect(table!.rows).toEqual([['g1', 'Harbour, north', 'active', 10, 2, 1, 0]]);
  });

  it('adds the click-through rate to the ads, empty when nothing was shown', () => {
    const [totals, , table] = analyticsSections({
      kind: 'ads',
      totals: { impressions: 400, clicks: 21 },
      points: [],
      rows: [
        { id: 'a1', title: 'Sale', previewPicture: null, status: 'active', counts: { impressions: 400, clicks: 21 } },
        { id: 'a2', title: 'New', previewPicture: null, status: 'draft', counts: { impressions: 0, clicks: 0 } },
      ],
      label,
    });
    expect(totals!.header).toEqual(['IMPRESSIONS', 'CLICKS', 'CTR']);
    expect(totals!.rows).toEqual([[400, 21, 5.25]]);
    expect(table!.rows.map((row) => row.at(-1))).toEqual([5.25, null]);
    expect(ctrPercent({ impressions: 3, clicks: 1 })).toBe(33.33);
  });
});
