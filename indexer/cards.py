"""Card payloads (spec §3 Media / Creator / Ad card, map feature properties) built from index documents.

Every index adapter builds `Page.docs` and map points with these functions, so the grid and the map
look the same whichever adapter the settings chose. Per-user flags (is_save, is_owned, is_follow) and
the human "created_ago" text are added by the API layer: the index never stores anything per user.
"""

from __future__ import annotations

from typing import Any

from indexer.documents import AdDocument, CreatorDocument, TourDocument


def tour_card(doc: TourDocument) -> dict[str, Any]:
    """Media card. `created_at` is epoch seconds; the API turns it into created_ago."""
    return {
        "type": "vt",
        "id": doc.id,
        "guid": doc.guid,
        "title": doc.title,
        "preview_picture": doc.preview_picture,
        "views": doc.views,
        "saves": doc.saves,
        "likes": doc.likes,
        "shared": doc.shared,
        "created_at": doc.created_at,
        "media_type_id": doc.media_type_id,
        "userid": doc.user_id,
    }


def creator_card(doc: CreatorDocument) -> dict[str, Any]:
    return {
        "type": "creator",
        "id": doc.id,
        "creator_name": doc.creator_name,
        "platform_username": doc.platform_username,
        "logo": doc.logo,
        "img_settings": dict(doc.img_settings),
        "followers": doc.followers,
        "vt_count": doc.vt_count,
        "views": doc.views,
        "locations": [{"location": location} for location in doc.locations],
        "userid": doc.user_id,
    }


def ad_card(doc: AdDocument) -> dict[str, Any]:
    return {
        "type": "ad",
        "id": doc.id,
        "guid": doc.guid,
        "title": doc.title,
        "preview_picture": doc.preview_picture,
        "link": doc.link,
        "user_id": doc.user_id,
    }


def map_feature(doc: TourDocument) -> dict[str, Any]:
    """Map feature properties of a tour. `vt_count` and `followers` belong to creator features; a tour
    feature carries them as None so the client reads one shape for both kinds."""
    return {
        "type": "vt",
        "id": doc.id,
        "guid": doc.guid,
        "userid": doc.user_id,
        "platform_username": doc.platform_username,
        "address": doc.address,
        "address_id": doc.address_id,
        "created_at": doc.created_at,
        "title": doc.title,
        "link": doc.link,
        "category_id": doc.category_id,
        "subcategory_id": doc.subcategory_id,
        "description": doc.description,
        "creator_name": doc.creator_name,
        "third_party_creator": doc.third_party_creator,
        "creator_website": doc.creator_website,
        "preview_picture": doc.preview_picture,
        "logo": doc.logo,
        "img_settings": dict(doc.img_settings),
        "shared": doc.shared,
        "saves": doc.saves,
        "likes": doc.likes,
        "views": doc.views,
        "vt_count": None,
        "followers": None,
        "media_type_id": doc.media_type_id,
    }


def map_point(doc: TourDocument) -> dict[str, Any]:
    """A map point: the feature properties plus where to draw it."""
    return {**map_feature(doc), "lat": doc.lat, "lng": doc.lng}
