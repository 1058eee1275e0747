import type { ReleaseIn } from '../../../shared/api/generated/types.gen';
import type { Release } from '../api/releasesApi';

/** The four item lists of spec §3 "Release", by their wire names, in the order the page shows them. */
export const ITEM_LISTS = ['listNewItems', 'listImprovedItems', 'listFixedItems', 'listComingSoonItems'] as const;
export type ItemList = (typeof ITEM_LISTS)[number];

// The server's limits (app/releases/schemas.py).
export const RELEASE_NAME_MAX = 255;
export const VERSION_MAX = 40;
export const ITEM_TITLE_MAX = 255;
export const ITEM_DESCRIPTION_MAX = 2000;
export const ITEMS_PER_LIST_MAX = 50;
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export interface ItemDraft {
  /** Only for React's list keys: the server numbers items itself. */
  key: string;
  title: string;
  description: string;
}

export interface ReleaseDraft {
  id: number | null;
  name: string;
  version: string;
  date: string;
  time: string;
  lists: Record<ItemList, ItemDraft[]>;
}

export type ReleaseError = 'required' | 'tooLong' | 'timeFormat';
/** Failing fields by the server's names (`releaseName`, `listFixedItems.0.title`…), so its 400s land on the same inputs. */
export type ReleaseErrors = Record<string, ReleaseError>;

let nextKey = 0;
export function newItem(title = '', description = ''): ItemDraft {
  nextKey += 1;
  return { key: `item-${nextKey}`, title, description };
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export function emptyDraft(): ReleaseDraft {
  return {
    id: null,
    name: '',
    version: '',
    date: today(),
    time: '',
    lists: { listNewItems: [], listImprovedItems: [], listFixedItems: [], listComingSoonItems: [] },
  };
}

export function draftOf(release: Release): ReleaseDraft {
  const items = (list: ItemList) => release[list].map((item) => newItem(item.title, item.description ?? ''));
  return {
    id: release.id,
    name: release.releaseName,
    version: release.releaseVersion,
    date: release.releaseDate,
    time: release.releaseTime ?? '',
    lists: {
      listNewItems: items('listNewItems'),
      listImprovedItems: items('listImprovedItems'),
      listFixedItems: items('listFixedItems'),
      listComingSoonItems: items('listComingSoonItems'),
    },
  };
}

function textError(value: string, max: number, required: boolean): ReleaseError | undefined {
  if (required && value.trim() === '') return 'required';
  return value.length > max ? 'tooLong' : undefined;
}

/** The same rules as the server, so most mistakes show before sending. */
export function validateRelease(draft: ReleaseDraft): ReleaseErrors {
  const errors: ReleaseErrors = {};
  const add = (field: string, error: ReleaseError | undefined) => {
    if (error) errors[field] = error;
  };
  add('releaseName', textError(draft.name, RELEASE_NAME_MAX, true));
  add('releaseVersion', draft.version.replace(/^\s*version\b/i, '').trim() === '' ? 'required' : textError(draft.version, VERSION_MAX, true));
  add('releaseDate', draft.date === '' ? 'required' : undefined);
  add('releaseTime', draft.time !== '' && !TIME_PATTERN.test(draft.time) ? 'timeFormat' : undefined);
  for (const list of ITEM_LISTS) {
    draft.lists[list].forEach((item, index) => {
      add(`${list}.${index}.title`, textError(item.title, ITEM_TITLE_MAX, true));
      add(`${list}.${index}.description`, textError(item.description, ITEM_DESCRIPTION_MAX, false));
    });
  }
  return errors;
}

export function toReleaseIn(draft: ReleaseDraft): ReleaseIn {
  const items = (list: ItemList) =>
    draft.lists[list].map((item) => ({ title: item.title.trim(), description: item.description.trim() || null }));
  return {
    id: draft.id,
    releaseName: draft.name.trim(),
    releaseVersion: draft.version.trim(),
    releaseDate: draft.date,
    releaseTime: draft.time || null,
    listNewItems: items('listNewItems'),
    listImprovedItems: items('listImprovedItems'),
    listFixedItems: items('listFixedItems'),
    listComingSoonItems: items('listComingSoonItems'),
  };
}
