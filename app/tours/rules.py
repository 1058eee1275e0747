"""Spec §5 "Media form" on the server, with the messages users read.

`check_form` reads a whole add or edit payload and answers the rows it names (host, media type,
category, subcategory, capture device, tags), or a 400 that names every failing field at once; the
first failure is the message, as the form shows it. Uniqueness of the link and the address are the
service's business (they answer 208, 409 and 404, not 400).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.classifications.dictionaries import normalise_link
from app.classifications.hashtags import HashtagTag, hashtags_in, tags_for_hashtags
from app.classifications.models import CaptureDevice, Category, MediaType, Subcategory, Tag
from app.tours import images
from app.tours.models import DESCRIPTION_MAX_LENGTH, MAX_TAGS_PER_TOUR, Tour
from app.tours.schemas import TourWrite
from app.users.models import User
from app.users.validation import has_profanity, raise_for_fields
from app.vendors.models import Vendor, VendorStatus

logger = logging.getLogger("touratlas.tours")

LINK_REQUIRED = "Link is required"
LINK_NOT_UNIQUE = "Link is not unique"
LINK_EXISTS = "Link already exists"  # the 208 answer; the client shows 'Error: Link already exists'
LINK_FORMAT = "Link is not right format"
TITLE_REQUIRED = "Title is required"
INVALID_TITLE = "Invalid Title"
INVALID_DESCRIPTION = "Invalid Location description"
DESCRIPTION_TOO_LONG = f"Description must be at most {DESCRIPTION_MAX_LENGTH} characters"
MEDIA_TYPE_REQUIRED = "Media type is required"
UNKNOWN_MEDIA_TYPE = "Unknown media type"
CATEGORY_REQUIRED = "Category is required"
UNKNOWN_CATEGORY = "Unknown category"
SUBCATEGORY_MISMATCH = "The subcategory does not belong to the category"
HOST_REQUIRED = "Host is required"
UNKNOWN_HOST = "Unknown host"
HOST_FIXED = "The host cannot be changed on existing media"
UNKNOWN_CAMERA = "Unknown capture device"
TOO_MANY_TAGS = f"At most {MAX_TAGS_PER_TOUR} tags"
UNKNOWN_TAGS = "Unknown tags"
IMAGE_REQUIRED = "Image are required"
IMAGE_NOT_FOUND = "The image was not found: upload it again"
IMAGE_LINK = "The image must be an uploaded image or an https:// address"
ADDRESS_REQUIRED = "Adrress is required"
WEBSITE_HTTPS = "The website must start with https://"
CM_FIELDS_ONLY = "Only content managers set Creator Name and Creator Website"
NEW_CATEGORY_WARNING = "Enter the category name; with a subcategory, both names separated by a comma"

_URL = re.compile(r"^https?://[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class CheckedForm:
    """The rows a valid payload names, and its cleaned texts."""

    vendor: Vendor
    media_type: MediaType
    category: Category
    subcategory: Subcategory | None
    camera: CaptureDevice | None
    tags: list[Tag]  # the form's tags, then those the description's hashtags add (MAX_TAGS_PER_TOUR in all)
    link: str
    link_normalised: str
    title: str
    description: str | None
    preview_picture: str | None
    vt_website: str | None
    creator_website: str | None
    third_party_creator: str | None
    # The hashtags that named one of `tags` (a tag the form chose too is kept once, as a hashtag's).
    hashtags: list[HashtagTag] = field(default_factory=list)
    # Hashtags that name a tag but found no room: the tour had MAX_TAGS_PER_TOUR tags already.
    hashtags_left_out: list[str] = field(default_factory=list)


def _clean(text: str | None) -> str | None:
    stripped = (text or "").strip()
    return stripped or None


def check_link_format(vendor: Vendor, link: str) -> bool:
    """Spec §5 "Link is not right format", for saving and for the link lookup alike: an http(s) address
    that is the host's. A white-label host serves tours under its customers' own domains, so any
    http(s) link may be its; other hosts match their own pattern, and a custom host without one
    takes links of its website. A custom host is one customer's white-label domain: its own pattern
    (made from its link heading, app/vendors/hosts.py) decides."""
    if not _URL.match(link):
        return False
    if vendor.is_white_label and not vendor.is_custom:
        return True
    if vendor.link_pattern:
        return _matches_pattern(vendor, link)
    expected = urlsplit(vendor.website or vendor.link_header or "").netloc.lower().removeprefix("www.")
    actual = urlsplit(link).netloc.lower().removeprefix("www.")
    return not expected or actual == expected or actual.endswith("." + expected)


def _matches_pattern(vendor: Vendor, link: str) -> bool:
    try:
        return re.match(vendor.link_pattern or "", link) is not None
    except re.error:
        # A broken pattern is the host's record at fault, not the user's link: let the link through.
        logger.warning("vendor %s has an invalid link pattern", vendor.name)
        return True


def _usable_vendor(session: Session, vendor_id: int, owner: User) -> Vendor | None:
    vendor = session.get(Vendor, vendor_id)
    if vendor is None:
        return None
    if vendor.is_custom:
        # A custom host is one creator's own domain (spec §3 Custom provider): its tours are its
        # owner's (added by them, or for them by an admin or CM), usable while it waits for approval too.
        usable = vendor.status in (VendorStatus.approved, VendorStatus.pending)
        return vendor if usable and vendor.owner_user_id == owner.id else None
    return vendor if vendor.status == VendorStatus.approved else None


def _check_website(value: str | None) -> str | None:
    if value and not (value.lower().startswith("https://") and _URL.match(value)):
        return WEBSITE_HTTPS
    return None


def _check_preview(value: str | None, vendor: Vendor | None, current: Tour | None) -> str | None:
    if not value:
        return IMAGE_REQUIRED if vendor is not None and vendor.preview_picture_required else None
    if current is not None and value == current.preview_picture:
        return None  # unchanged (demo pictures and older uploads stay as they are)
    if value.startswith("/uploads/"):
        return None if images.is_stored_preview(value) else IMAGE_NOT_FOUND
    if not (value.lower().startswith("https://") and _URL.match(value)):
        return IMAGE_LINK
    return None


def _check_title(title: str | None) -> str | None:
    if not title:
        return TITLE_REQUIRED
    return INVALID_TITLE if has_profanity(title) else None


def _check_description(description: str | None) -> str | None:
    if description and len(description) > DESCRIPTION_MAX_LENGTH:
        return DESCRIPTION_TOO_LONG
    return INVALID_DESCRIPTION if description and has_profanity(description) else None


def _check_new_category(body: TourWrite) -> str | None:
    if body.newCategory is None:
        return None
    return NEW_CATEGORY_WARNING if not body.newCategory.category.strip() else None


def _category_for(session: Session, body: TourWrite) -> Category | None:
    if body.category_id is not None:
        return session.get(Category, body.category_id)
    if body.newCategory is not None and body.newCategory.category.strip():
        # A "new" category that already exists is simply that category.
        name = body.newCategory.category.strip().lower()
        return session.scalar(select(Category).where(func.lower(Category.name) == name))
    return None


def _tags(session: Session, body: TourWrite, failures: dict[str, str | None]) -> list[Tag]:
    tag_ids = list(dict.fromkeys(tag.id for tag in body.tags))
    if len(tag_ids) > MAX_TAGS_PER_TOUR:
        failures["tags"] = TOO_MANY_TAGS
        return []
    rows = {tag.id: tag for tag in session.scalars(select(Tag).where(Tag.id.in_(tag_ids)))} if tag_ids else {}
    if any(tag_id not in rows or not rows[tag_id].is_active for tag_id in tag_ids):
        failures["tags"] = UNKNOWN_TAGS
        return []
    return [rows[tag_id] for tag_id in tag_ids]


def check_form(session: Session, body: TourWrite, *, owner: User, editor: User, current: Tour | None) -> CheckedForm:
    """Every §5 Media form rule; `current` is the tour being edited (None when adding)."""
    failures: dict[str, str | None] = {}
    link = _clean(body.link)
    title = _clean(body.title)
    description = _clean(body.description)

    vendor: Vendor | None = None
    if current is not None:
        if body.vendor is not None and body.vendor != current.vendor_id:
            failures["vendor"] = HOST_FIXED
        vendor = current.vendor
    elif body.vendor is None:
        failures["vendor"] = HOST_REQUIRED
    else:
        vendor = _usable_vendor(session, body.vendor, owner)
        failures["vendor"] = None if vendor is not None else UNKNOWN_HOST

    if not link:
        failures["link"] = LINK_REQUIRED
    elif vendor is not None and not check_link_format(vendor, link):
        failures["link"] = LINK_FORMAT
    failures["title"] = _check_title(title)
    failures["description"] = _check_description(description)

    media_type = session.get(MediaType, body.media_type_id) if body.media_type_id is not None else None
    if body.media_type_id is None:
        failures["media_type_id"] = MEDIA_TYPE_REQUIRED
    elif media_type is None or not media_type.is_active:
        failures["media_type_id"] = UNKNOWN_MEDIA_TYPE

    failures["newCategory"] = _check_new_category(body)
    category = _category_for(session, body)
    if body.category_id is None and category is None:
        failures["category_id"] = CATEGORY_REQUIRED
    elif category is None or not category.is_active:
        failures["category_id"] = UNKNOWN_CATEGORY

    subcategory = session.get(Subcategory, body.subcategory_id) if body.subcategory_id is not None else None
    if body.subcategory_id is not None and (
        subcategory is None or category is None or subcategory.category_id != category.id
    ):
        failures["subcategory_id"] = SUBCATEGORY_MISMATCH

    camera = session.get(CaptureDevice, body.camera_id) if body.camera_id is not None else None
    if body.camera_id is not None and camera is None:
        failures["camera_id"] = UNKNOWN_CAMERA

    tags = _tags(session, body, failures)
    preview_picture = _clean(body.preview_picture)
    failures["preview_picture"] = _check_preview(preview_picture, vendor, current)
    vt_website = _clean(body.vt_website)
    failures["vt_website"] = _check_website(vt_website)

    creator_website = _clean(body.creator_website)
    third_party_creator = _clean(body.third_party_creator)
    staff = editor.is_admin or editor.is_content_manager
    third_party_changed = current is None or (
        creator_website != current.creator_website or third_party_creator != current.third_party_creator
    )
    if not staff and third_party_changed and (creator_website or third_party_creator):
        failures["third_party_creator"] = CM_FIELDS_ONLY
    failures["creator_website"] = _check_website(creator_website)
    if current is None:
        failures["address_str"] = _check_address_given(body)

    raise_for_fields(failures)
    assert vendor is not None and media_type is not None and category is not None and link and title
    tags, hashtags, left_out = with_hashtags(session, tags, description, category=category, media_type=media_type)
    return CheckedForm(
        vendor=vendor,
        media_type=media_type,
        category=category,
        subcategory=subcategory,
        camera=camera,
        tags=tags,
        link=link,
        link_normalised=normalise_link(link),
        title=title,
        description=description,
        preview_picture=preview_picture,
        vt_website=vt_website,
        creator_website=creator_website,
        third_party_creator=third_party_creator,
        hashtags=hashtags,
        hashtags_left_out=left_out,
    )


def with_hashtags(
    session: Session, tags: list[Tag], description: str | None, *, category: Category, media_type: MediaType
) -> tuple[list[Tag], list[HashtagTag], list[str]]:
    """The form's tags and, after them, the tags the description's hashtags name (issue 18 part 6).

    The §5 limit holds for both together: the form's tags (at most MAX_TAGS_PER_TOUR, checked
    before) keep their places, hashtags fill the room left in the order they appear, and a hashtag
    past the limit is left out (reported in the save answer; the description keeps it as text)."""
    matched = tags_for_hashtags(session, hashtags_in(description), category_id=category.id, media_type_id=media_type.id)
    chosen = list(tags)
    ids = {tag.id for tag in chosen}
    kept: list[HashtagTag] = []
    left_out: list[str] = []
    for found in matched:
        if found.tag.id not in ids:
            if len(chosen) >= MAX_TAGS_PER_TOUR:
                left_out.append(found.hashtag)
                continue
            chosen.append(found.tag)
            ids.add(found.tag.id)
        kept.append(found)
    return chosen, kept, left_out


def _check_address_given(body: TourWrite) -> str | None:
    """The physical-address switch on and nothing to locate the tour by. The location is set once,
    when the tour is added (spec §4), so edits are not asked for it."""
    if body.physical_address and not (_clean(body.address_str) or _clean(body.address_id) or _clean(body.coordinate)):
        return ADDRESS_REQUIRED
    return None
