import type { TourEdit, TourOut, TourWrite } from '../../../shared/api/generated/types.gen';
import { EMPTY_MEDIA_FORM, type MediaFormValues, parseNewCategory } from './mediaForm';

interface PayloadContext {
  mode: 'add' | 'edit';
  guid: string | null;
  /** CM and admins send Creator Name and Creator Website (spec §6); others never do. */
  isContentManager: boolean;
}

const idOf = (value: string | null): number | null => (value ? Number(value) : null);
const textOrNull = (value: string): string | null => value.trim() || null;

/**
 * Spec §3 "Media write". Saving asks for approval (spec §4; the server lets trusted users skip it) and
 * publishes the tour, public or unlisted, unless the owner chose Draft (issue 18: the form sets who
 * finds the tour). Host and location are the add's business only.
 */
export function formValuesToPayload(values: MediaFormValues, context: PayloadContext): TourWrite | TourEdit {
  const adding = context.mode === 'add';
  const newCategory = values.newCategoryMode ? parseNewCategory(values.newCategory) : null;
  const payload: TourWrite = {
    link: values.link.trim(),
    title: values.title.trim(),
    description: textOrNull(values.description),
    media_type_id: idOf(values.mediaTypeId),
    category_id: idOf(values.categoryId),
    subcategory_id: idOf(values.subcategoryId),
    camera_id: idOf(values.cameraId),
    vt_website: textOrNull(values.vtWebsite),
    preview_picture: textOrNull(values.previewPicture),
    tags: values.tags.map((tag) => ({ id: tag.id })),
    is_ai_generated: values.isAiGenerated,
    is_active: !values.asDraft,
    visibility: values.visibility,
    approve_needed: true,
    newCategory: newCategory ? { category: newCategory.category, subcategory: newCategory.subcategory ?? null } : null,
    ...(context.isContentManager
      ? { third_party_creator: textOrNull(values.thirdPartyCreator), creator_website: textOrNull(values.creatorWebsite) }
      : {}),
    ...(adding
      ? {
          vendor: idOf(values.vendorId),
          physical_address: values.hasAddress,
          address_str: values.hasAddress ? textOrNull(values.addressStr) : null,
          address_id: values.hasAddress ? values.addressId : null,
          coordinate: values.hasAddress ? values.coordinate : null,
        }
      : {}),
  };
  if (adding || context.guid === null) return payload;
  return { ...payload, guid: context.guid } satisfies TourEdit;
}

/** The form as it opens for an existing tour. */
export function tourToFormValues(tour: TourOut): MediaFormValues {
  return {
    ...EMPTY_MEDIA_FORM,
    vendorId: String(tour.vendor.id),
    link: tour.link,
    title: tour.title,
    description: tour.description ?? '',
    mediaTypeId: String(tour.media_type_id),
    categoryId: String(tour.category_id),
    subcategoryId: tour.subcategory_id === null ? null : String(tour.subcategory_id),
    cameraId: tour.camera_id === null ? null : String(tour.camera_id),
    hasAddress: tour.address_str !== null || tour.coordinates !== null,
    addressStr: tour.address_str ?? '',
    addressId: tour.address_id,
    vtWebsite: tour.vt_website ?? '',
    previewPicture: tour.preview_picture ?? '',
    // Tags that came from the description's hashtags follow the description (the server matches them
    // again on saving): the form holds only those picked by hand.
    tags: tour.tags.filter((tag) => !tag.hashtag).map((tag) => ({ id: tag.id, name: tag.name, source: 'manual' as const })),
    isAiGenerated: tour.is_ai_generated,
    thirdPartyCreator: tour.third_party_creator ?? '',
    creatorWebsite: tour.creator_website ?? '',
    visibility: tour.visibility,
    asDraft: tour.status === 'draft',
  };
}
