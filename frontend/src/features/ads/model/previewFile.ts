/**
 * The preview picture's file rules (spec §5/§9, the same pipeline as the tours'): pdf, jpg, jpeg or
 * png, at most 2 MB. Checked before uploading, so a wrong file costs no upload; the server sniffs
 * the bytes again. (The media form has the same rule; features do not import each other.)
 */
export const MAX_PREVIEW_BYTES = 2 * 1024 * 1024;
export const PREVIEW_ACCEPT = 'application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png';

const ALLOWED_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png']);
const ALLOWED_EXTENSIONS = /\.(pdf|jpe?g|png)$/i;

export type PreviewFileProblem = { kind: 'type' } | { kind: 'size'; sizeMb: string; maxMb: string };

function megabytes(bytes: number): string {
  return (Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1).replace(/\.0$/, '');
}

export function previewFileProblem(file: Pick<File, 'name' | 'size' | 'type'>): PreviewFileProblem | null {
  const typeKnown = file.type ? ALLOWED_TYPES.has(file.type) : ALLOWED_EXTENSIONS.test(file.name);
  if (!typeKnown) return { kind: 'type' };
  if (file.size > MAX_PREVIEW_BYTES) return { kind: 'size', sizeMb: megabytes(file.size), maxMb: megabytes(MAX_PREVIEW_BYTES) };
  return null;
}
