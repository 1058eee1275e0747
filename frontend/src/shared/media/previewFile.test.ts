import { MAX_PREVIEW_BYTES, previewFileProblem } from './previewFile';

const file = (name: string, size: number, type: string) => ({ name, size, type });

describe('previewFileProblem (spec §5: pdf, jpg, jpeg, png up to 2 MB)', () => {
  it('accepts the allowed types up to the limit', () => {
    expect(previewFileProblem(file('a.jpg', MAX_PREVIEW_BYTES, 'image/jpeg'))).toBeNull();
    expect(previewFileProblem(file('a.png', 10, 'image/png'))).toBeNull();
    expect(previewFileProblem(file('a.pdf', 10, 'application/pdf'))).toBeNull();
    expect(previewFileProblem(file('a.JPEG', 10, ''))).toBeNull();
  });

  it('refuses other types', () => {
    expect(previewFileProblem(file('a.gif', 10, 'image/gif'))).toEqual({ kind: 'type' });
    expect(previewFileProblem(file('a.webp', 10, ''))).toEqual({ kind: 'type' });
  });

  it('states the size against the maximum, rounded up', () => {
    expect(previewFileProblem(file('big.jpg', 3.05 * 1024 * 1024, 'image/jpeg'))).toEqual({ kind: 'size', sizeMb: '3.1', maxMb: '2' });
    expect(previewFileProblem(file('big.jpg', MAX_PREVIEW_BYTES + 1, 'image/jpeg'))).toEqual({ kind: 'size', sizeMb: '2.1', maxMb: '2' });
  });
});
