/** What a row shows of an item: the server's summary when it gives one, else what the payload names. */
export interface ItemSummary {
  title: string | null;
  username: string | null;
  preview_picture: string | null;
  link: string | null;
}

interface Summarised {
  id: number;
  payload: { [key: string]: unknown };
  summary?: Partial<ItemSummary> | null;
}

const TITLE_FIELDS = ['title', 'name', 'creator_name', 'vendor_name', 'category', 'platform_username', 'username', 'email'] as const;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function itemSummary(item: Summarised): ItemSummary {
  const summary = item.summary ?? {};
  const payload = item.payload;
  const fromPayload = TITLE_FIELDS.map((field) => text(payload[field])).find((value) => value !== null) ?? null;
  const subcategory = text(payload.subcategory);
  const payloadTitle = fromPayload !== null && subcategory !== null && fromPayload === text(payload.category) ? `${fromPayload} › ${subcategory}` : fromPayload;
  return {
    title: text(summary.title) ?? payloadTitle,
    username: text(summary.username),
    preview_picture: text(summary.preview_picture) ?? text(payload.preview_picture) ?? text(payload.logo),
    link: text(summary.link) ?? text(payload.link),
  };
}

/** The fields of the diff: every field of either version, the changed ones first, each once. */
export interface DiffRow {
  field: string;
  current: unknown;
  proposed: unknown;
  changed: boolean;
}

const HIDDEN_FIELDS = new Set(['id', 'guid', 'userid', 'user_id', 'tour_guid']);

export function diffRows(current: Readonly<Record<string, unknown>> | null | undefined, proposed: Readonly<Record<string, unknown>> | null | undefined): DiffRow[] {
  if (!isObject(proposed)) return [];
  if (!isObject(current)) current = null;
  const fields = [...new Set([...Object.keys(proposed), ...Object.keys(current ?? {})])].filter((field) => !HIDDEN_FIELDS.has(field));
  const rows = fields
    .map((field) => {
      const before = current ? current[field] : undefined;
      const after = field in proposed ? proposed[field] : before;
      return { field, current: before, proposed: after, changed: current ? !sameValue(before, after) : true };
    })
    // Something new: its empty fields say nothing.
    .filter((row) => current !== null || showValue(row.proposed) !== null);
  const byWeight = (a: DiffRow, b: DiffRow) => weight(a.field) - weight(b.field);
  return [...rows.filter((row) => row.changed).sort(byWeight), ...rows.filter((row) => !row.changed).sort(byWeight)];
}

/** What a moderator reads first: the name and the words, then the rest in the server's order. */
const FIRST_FIELDS = ['title', 'name', 'creator_name', 'vendor_name', 'category', 'subcategory', 'description', 'link'];

function weight(field: string): number {
  const index = FIRST_FIELDS.indexOf(field);
  return index === -1 ? FIRST_FIELDS.length : index;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** A field's value as text for the diff (lists and objects as compact JSON). */
export function showValue(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string' || typeof entry === 'number')) return value.join(', ');
  if (isObject(value)) {
    // An address, a settings object: its filled parts, one after the other.
    const parts = Object.entries(value)
      .map(([key, part]) => [key, showValue(part)] as const)
      .filter((entry): entry is readonly [string, string] => entry[1] !== null)
      .map(([key, part]) => `${fieldLabel(key)}: ${part}`);
    return parts.length > 0 ? parts.join(' · ') : null;
  }
  return JSON.stringify(value);
}

/** A field name as a reader would write it: `preview_picture` → `Preview picture`. */
export function fieldLabel(field: string): string {
  const words = field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fields the catalogue names in every language; any other is read from its wire name (fieldLabel). */
export const NAMED_FIELDS = [
  'title', 'name', 'description', 'link', 'address', 'address_str', 'coordinates', 'email', 'first_name', 'last_name',
  'platform_username', 'phone', 'creator_name', 'website', 'category', 'subcategory', 'preview_picture', 'logo', 'vendor_name', 'tags',
] as const;

export type NamedField = (typeof NAMED_FIELDS)[number];

export function isNamedField(field: string): field is NamedField {
  return (NAMED_FIELDS as readonly string[]).includes(field);
}
