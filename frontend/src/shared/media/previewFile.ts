/** Spec §5/§9: preview images up to 2 MB, as pdf, jpg, jpeg or png (600 x 400 recommended). */
export const MAX_PREVIEW_BYTES = 2 * 1024 * 1024;
export const PREVIEW_ACCEPT = 'application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png';

const ALLOWED_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png']);
const ALLOWED_EXTENSIONS = /\.(pdf|jpe?g|png)$/i;

export type PreviewFileProblem = { kind: 'type' } | { kind: 'size'; sizeMb: string; maxMb: string };

function megabytes(bytes: number): string {
  return (Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1).replace(/\.0$/, '');
}

/**
 * Checked before uploading, so a wrong file costs no upload; the server sniffs the bytes again.
 * The size is rounded up, so a file just over the limit never reads "2 MB; the maximum is 2 MB".
 */
export function previewFileProblem(file: Pick<File, 'name' | 'size' | 'type'>): PreviewFileProblem | null {
  const typeKnown = file.type ? ALLOWED_TYPES.has(file.type) : ALLOWED_EXTENSIONS.test(file.name);
  if (!typeKnown) return { kind: 'type' };
  if (file.size > MAX_PREVIEW_BYTES) return { kind: 'size', sizeMb: megabytes(file.size), maxMb: megabytes(MAX_PREVIEW_BYTES) };
  return null;
}
