import { keepPreviousData, queryOptions } from '@tanstack/react-query';

import { errorMessage, fieldErrors } from '../../../shared/api/apiError';
import {
  classificationsAdminBatchUpload,
  classificationsAdminCaptureDevices,
  classificationsAdminCategories,
  classificationsAdminCreateCaptureDevice,
  classificationsAdminCreateMediaType,
  classificationsAdminCreateSubcategory,
  classificationsAdminCreateTag,
  classificationsAdminMediaTypes,
  classificationsAdminSubcategories,
  classificationsAdminTagEmbeddings,
  classificationsAdminTagEmbeddingsProgress,
  classificationsAdminTags,
  classificationsAdminUpdateCaptureDevice,
  classificationsAdminUpdateMediaType,
  classificationsAdminUpdateSubcategory,
  classificationsAdminUpdateTag,
  classificationsCreateCategory,
  classificationsUpdateCategory,
  classificationsUploadCategoryIcon,
  vendorsChangeStatus,
  vendorsModerationVendors,
} from '../../../shared/api/generated/sdk.gen';
import type {
  AdminCaptureDeviceOut,
  AdminCategoryOut,
  AdminMediaTypeOut,
  AdminSubcategoryOut,
  AdminTagOut,
  BatchUploadAnswer,
  CategoryCreate,
  CategoryUpdate,
  SubcategoryCreate,
  SubcategoryUpdate,
  TagCreate,
  TagEmbeddingJobAnswer,
  TagTopicType,
  TagUpdate,
  VendorAdminOut,
} from '../../../shared/api/generated/types.gen';
import { classificationsQueryKeys } from './queryKeys';

export const PAGE_SIZE = 25;

/** Active filter of a list: every row, only active ones or only deactivated ones. */
export type ActiveFilter = 'all' | 'active' | 'inactive';

export interface ListParams {
  search: string;
  active: ActiveFilter;
  page: number;
}

export interface Page<T> {
  data: T[];
  total_items: number;
}

function listQuery(params: ListParams) {
  return {
    search: params.search || undefined,
    is_active: params.active === 'all' ? undefined : params.active === 'active',
    limit: PAGE_SIZE,
    offset: (params.page - 1) * PAGE_SIZE,
  };
}

/** GET admin-categories: every category, active or not, with its names, icon and tour count. */
export function categoriesQueryOptions(params: ListParams) {
  return queryOptions({
    queryKey: classificationsQueryKeys.list('categories', params),
    queryFn: async ({ signal }): Promise<Page<AdminCategoryOut>> =>
      (await classificationsAdminCategories({ query: listQuery(params), signal, throwOnError: true })).data,
    placeholderData: keepPreviousData,
  });
}

/** Every category for the pickers (the subcategory form, the filters): the API's largest page. */
export function allCategoriesQueryOptions() {
  return queryOptions({
    queryKey: classificationsQueryKeys.list('categories', { all: true }),
    queryFn: async ({ signal }): Promise<AdminCategoryOut[]> =>
      (await classificationsAdminCategories({ query: { limit: 500 }, signal, throwOnError: true })).data.data,
    staleTime: 30_000,
  });
}

/** Every media type for the tag form's topic picker. */
export function allMediaTypesQueryOptions() {
  return queryOptions({
    queryKey: classificationsQueryKeys.list('media-types', { all: true }),
    queryFn: async ({ signal }): Promise<AdminMediaTypeOut[]> =>
      (await classificationsAdminMediaTypes({ query: { limit: 500 }, signal, throwOnError: true })).data.data,
    staleTime: 30_000,
  });
}

export function subcategoriesQueryOptions(params: ListParams & { categoryId: number | null }) {
  return queryOptions({
    queryKey: classificationsQueryKeys.list('subcategories', params),
    queryFn: async ({ signal }): Promise<Page<AdminSubcategoryOut>> =>
      (
        await classificationsAdminSubcategories({
          query: { ...listQuery(params), category_id: params.categoryId ?? undefined },
          signal,
          throwOnError: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

/** A row of a dictionary that has only names: a media type or a capture device. */
export interface SimpleRow {
  id: number;
  name: string;
  translations: Record<string, string>;
  is_active: boolean;
  tours: number;
}

export type SimpleKind = 'media-types' | 'capture-devices';

const deviceRow = (row: AdminCaptureDeviceOut): SimpleRow => ({
  id: row.camera_id,
  name: row.camera_name,
  translations: row.translations,
  is_active: row.is_active,
  tours: row.tours,
});

/** GET admin-media-types or admin-capture-devices, as rows of one shape. */
export function simpleRowsQueryOptions(kind: SimpleKind, params: ListParams) {
  return queryOptions({
    queryKey: classificationsQueryKeys.list(kind, params),
    queryFn: async ({ signal }): Promise<Page<SimpleRow>> => {
      if (kind === 'media-types') return (await classificationsAdminMediaTypes({ query: listQuery(params), signal, throwOnError: true })).data;
      const page = (await classificationsAdminCaptureDevices({ query: listQuery(params), signal, throwOnError: true })).data;
      return { data: page.data.map(deviceRow), total_items: page.total_items };
    },
    placeholderData: keepPreviousData,
  });
}

/** What a simple row's body holds: a new row's values, or only the changed ones. */
export interface SimpleChange {
  name?: string;
  translations?: Record<string, string>;
  is_active?: boolean;
}

/** POST or PUT admin-media-types / admin-capture-devices (the latter names its fields camera_*). */
export async function saveSimpleRow(kind: SimpleKind, id: number | null, change: SimpleChange): Promise<Outcome<SimpleRow>> {
  if (kind === 'media-types') {
    return settle<AdminMediaTypeOut>(
      id === null
        ? classificationsAdminCreateMediaType({ body: { name: change.name ?? '', translations: change.translations, is_active: change.is_active } })
        : classificationsAdminUpdateMediaType({ body: { id, ...change } }),
    );
  }
  const outcome = await settle<AdminCaptureDeviceOut>(
    id === null
      ? classificationsAdminCreateCaptureDevice({ body: { camera_name: change.name ?? '', translations: change.translations, is_active: change.is_active } })
      : classificationsAdminUpdateCaptureDevice({ body: { camera_id: id, camera_name: change.name, translations: change.translations, is_active: change.is_active } }),
  );
  return outcome.kind === 'saved' ? { ...outcome, data: deviceRow(outcome.data) } : outcome;
}

export interface TopicFilter {
  type: TagTopicType;
  id: number;
}

export function tagsQueryOptions(params: ListParams & { topic: TopicFilter | null }) {
  return queryOptions({
    queryKey: classificationsQueryKeys.list('tags', params),
    queryFn: async ({ signal }): Promise<Page<AdminTagOut>> =>
      (
        await classificationsAdminTags({
          query: { ...listQuery(params), topic_type: params.topic?.type, topic_id: params.topic?.id },
          signal,
          throwOnError: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

const VENDOR_STATUSES = ['all', 'approved', 'pending', 'rejected', 'inactive'] as const;
export type VendorStatus = (typeof VENDOR_STATUSES)[number];
export const vendorStatuses: readonly VendorStatus[] = VENDOR_STATUSES;

/** GET /v2/vendors/moderation-vendors: every host, those waiting first, with owner and tour count. */
export function vendorsQueryOptions(params: { search: string; status: VendorStatus; page: number }) {
  return queryOptions({
    queryKey: classificationsQueryKeys.vendors(params),
    queryFn: async ({ signal }): Promise<Page<VendorAdminOut>> =>
      (
        await vendorsModerationVendors({
          query: { search: params.search || undefined, status: params.status, limit: PAGE_SIZE, offset: (params.page - 1) * PAGE_SIZE },
          signal,
          throwOnError: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

/** GET admin-tag-embeddings: the latest recompute run; polled while one is under way. */
export function embeddingJobQueryOptions() {
  return queryOptions({
    queryKey: classificationsQueryKeys.embeddings,
    queryFn: async ({ signal }): Promise<TagEmbeddingJobAnswer> =>
      (await classificationsAdminTagEmbeddingsProgress({ signal, throwOnError: true })).data,
    refetchInterval: (query) => {
      const status = query.state.data?.data?.status;
      return status === 'queued' || status === 'running' ? 2_000 : false;
    },
  });
}

// ------------------------------------------------------------------------------ writes

export type Outcome<T> =
  | { kind: 'saved'; message: string; data: T }
  /** 400 (a field is wrong), 404 or 409 (a name taken, a row in use): the server's message and fields. */
  | { kind: 'refused'; message: string | null; fields: Record<string, string> }
  | { kind: 'failed'; message: string | null };

interface CallResult<T> {
  data?: T;
  error?: unknown;
  response?: Response;
}

/** A write's answer as an outcome the forms and lists show (never a thrown error). */
export async function settle<T>(call: Promise<CallResult<{ message: string; data: T }>>): Promise<Outcome<T>> {
  let result: CallResult<{ message: string; data: T }>;
  try {
    result = await call;
  } catch {
    return { kind: 'failed', message: null };
  }
  if (result.data) return { kind: 'saved', message: result.data.message, data: result.data.data };
  const status = result.response?.status;
  const message = errorMessage(result.error, '') || null;
  if (status === 400 || status === 404 || status === 409) return { kind: 'refused', message, fields: fieldErrors(result.error) };
  return { kind: 'failed', message };
}

export const saveCategory = (body: CategoryCreate | CategoryUpdate) =>
  settle<AdminCategoryOut>('id' in body ? classificationsUpdateCategory({ body }) : classificationsCreateCategory({ body }));

export const saveSubcategory = (body: SubcategoryCreate | SubcategoryUpdate) =>
  settle<AdminSubcategoryOut>(
    'id' in body ? classificationsAdminUpdateSubcategory({ body }) : classificationsAdminCreateSubcategory({ body }),
  );

export const saveTag = (body: TagCreate | TagUpdate) =>
  settle<AdminTagOut>('id' in body ? classificationsAdminUpdateTag({ body }) : classificationsAdminCreateTag({ body }));

export const changeVendorStatus = (vendorId: number, status: 'approved' | 'inactive') =>
  settle<VendorAdminOut>(vendorsChangeStatus({ body: { vendor_id: vendorId, status } }));

/** POST category-icon: the stored name (a category's image_search, source cloud) and its served path. */
export async function uploadCategoryIcon(file: File): Promise<Outcome<{ image: string; path: string }>> {
  return settle(
    classificationsUploadCategoryIcon({ body: { image: file } }).then((result) => ({
      ...result,
      data: result.data ? { message: result.data.message ?? '', data: { image: result.data.image ?? '', path: result.data.path } } : undefined,
    })),
  );
}

/** POST admin-tag-embeddings: start a recompute (or hear about the one under way). */
export const startTagEmbeddings = () =>
  settle<TagEmbeddingJobAnswer['data']>(classificationsAdminTagEmbeddings());

/** POST admin-batch-upload: a dry run checks and reports; without it every row is applied, or none. */
export async function uploadBatch(file: File, dryRun: boolean): Promise<Outcome<BatchUploadAnswer>> {
  return settle(
    classificationsAdminBatchUpload({ body: { file, dry_run: dryRun } }).then((result) => ({
      ...result,
      data: result.data ? { message: result.data.message, data: result.data } : undefined,
    })),
  );
}
