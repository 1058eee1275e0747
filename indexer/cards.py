"""Card payloads (spec §3 Media / Creator / Ad card, map feature properties) built from index documents.

Every index adapter builds `Page.docs` and map points with these functions, so the grid and the map
look the same whichever adapter the settings chose. Per-user flags (is_save, is_owned, is_follow) and
the human "created_ago" text are added by the API layer: the index never stores anything per user.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from indexer.documents import AdDocument, CreatorDocument, TourDocument


class TourCard(TypedDict):
    """Media card of a tour, as the index stores and answers it (`created_at` in epoch seconds).
    Counters folded in by `update_counters` may arrive as floats (`7.0`): readers int() them."""

    type: Literal["vt"]
    id: int
    guid: str
    title: str
    preview_picture: str | None
    views: int
    saves: int
    likes: int
    shared: int
    created_at: float
    media_type_id: int
    userid: int


class CreatorLocation(TypedDict):
    location: str


class CreatorCard(TypedDict):
    type: Literal["creator"]
    id: int
    creator_name: str
    platform_username: str | None
    logo: str | None
    img_settings: dict[str, Any]  # the creator's stored display settings (bgColor, logoScale, …)
    followers: int
    vt_count: int
    views: int
    locations: list[CreatorLocation]
    userid: int


class AdCard(TypedDict):
    type: Literal["ad"]
    id: int
    guid: str
    title: str
    preview_picture: str | None
    link: str
    user_id: int
    tag_ids: list[int]
    rank: float


# What a grid page holds; `type` tells them apart (mypy narrows on `card["type"] == "vt"`).
Card = TourCard | CreatorCard | AdCard


class MapFeature(TypedDict):
    """Map feature properties of a tour. `vt_count` and `followers` belong to creator features; a tour
    feature carries them as None so the client reads one shape for both kinds."""

    type: Literal["vt"]
    id: int
    guid: str
    userid: int
    platform_username: str | None
    address: str | None
    address_id: str | None
    created_at: float
    title: str
    link: str
    category_id: int
    subcategory_id: int | None
    description: str
    creator_name: str | None
    third_party_creator: str | None
    creator_website: str | None
    preview_picture: str | None
    logo: str | None
    img_settings: dict[str, Any]
    shared: int
    saves: int
    likes: int
    views: int
    vt_count: None
    followers: None
    media_type_id: int


class MapPoint(MapFeature):
    """A map point: the feature properties plus where to draw it."""

    lat: float
    lng: float


def tour_card(doc: TourDocument) -> TourCard:
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


def creator_card(doc: CreatorDocument) -> CreatorCard:
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


def ad_card(doc: AdDocument) -> AdCard:
    return {
        "type": "ad",
        "id": doc.id,
        "guid": doc.guid,
        "title": doc.title,
        "preview_picture": doc.preview_picture,
        "link": doc.link,
        "user_id": doc.user_id,
        "tag_ids": list(doc.tag_ids),
        "rank": doc.rank,
    }


def map_feature(doc: TourDocument) -> MapFeature:
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


def map_point(doc: TourDocument) -> MapPoint:
    """A map point: the feature properties plus where to draw it (only located tours are drawn)."""
    if doc.lat is None or doc.lng is None:
        raise ValueError(f"tour {doc.id} has no location to draw on the map")
    return {**map_feature(doc), "lat": doc.lat, "lng": doc.lng}
