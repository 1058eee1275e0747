"""Search documents: what the index stores about a tour, creator, ad, tag or place.

Documents carry the card payload (spec §3 Media / Creator / Ad card and map feature properties,
minus per-user flags, which never enter the index) so a feed page needs no database read besides
the per-user flags of its ids.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class TourDocument:
    id: int
    guid: str
    user_id: int
    creator_id: int | None
    title: str
    description: str
    category_id: int
    subcategory_id: int | None
    media_type_id: int
    vendor_id: int
    country: str | None
    city: str | None
    address: str | None
    address_id: str | None
    lat: float | None
    lng: float | None
    tag_ids: tuple[int, ...]
    tag_names: tuple[str, ...]
    created_at: float  # epoch seconds
    views: int
    likes: int
    saves: int
    shared: int
    trending: float
    popular: float  # 0.5 * views score + 0.5 * recency score, both in [0, 1]; see indexer.scores
    is_featured: bool
    featured_order: int | None
    link: str
    preview_picture: str | None
    third_party_creator: str | None
    creator_website: str | None
    creator_name: str | None
    platform_username: str | None
    logo: str | None
    img_settings: dict[str, Any] = field(default_factory=dict)
    # Reachable by its link and on its owner's pages, never listed elsewhere (TourFilter.with_unlisted).
    unlisted: bool = False


@dataclass(frozen=True, slots=True)
class CreatorDocument:
    id: int
    user_id: int
    creator_name: str
    platform_username: str | None
    description: str
    logo: str | None
    img_settings: dict[str, Any]
    followers: int
    vt_count: int
    views: int
    likes: int
    locations: tuple[str, ...]
    countries: tuple[str, ...]
    category_ids: tuple[int, ...]
    created_at: float
    lat: float | None = None
    lng: float | None = None
    # The Full Profile's public fields (spec §3 Creator profile; mapping creators.v2). `locations` is
    # its area_served and `vt_count` its activeTours (the listable tours). Contact details (phone,
    # e-mail) stay out: nothing lists or ranks by them, and the contact form goes through the server.
    trusted: bool = False
    services: tuple[str, ...] = ()
    website: str | None = None
    instagram: str | None = None
    twitter: str | None = None
    youtube: str | None = None
    facebook: str | None = None
    linkedin: str | None = None
    default_view: str = "grid"
    joined_fb_group: bool = False


def creator_document_from(values: dict[str, Any]) -> CreatorDocument:
    """A creator document from its stored JSON (either adapter): lists become the tuples the class
    declares, keys it does not know are ignored, and fields an older layout lacked take their defaults."""
    known: dict[str, Any] = {}
    for name in CreatorDocument.__dataclass_fields__:
        if name in values:
            known[name] = tuple(values[name]) if isinstance(values[name], list) else values[name]
    return CreatorDocument(**known)


@dataclass(frozen=True, slots=True)
class AdDocument:
    id: int
    guid: str
    user_id: int
    title: str
    preview_picture: str | None
    link: str
    created_at: float
    # What the serving chooses by (app/ads/serving.py): the ad's tags and its rank (the sum of its
    # rank sources' values). Not shown on the card.
    tag_ids: tuple[int, ...] = ()
    rank: float = 0.0


@dataclass(frozen=True, slots=True)
class TagDocument:
    id: int
    name: str
    topic_type: str
    topic_id: int
    vt_count: int


@dataclass(frozen=True, slots=True)
class PlaceDocument:
    id: str
    name: str
    kind: str  # country, region, place
    country: str | None
    lat: float
    lng: float
    bbox: tuple[float, float, float, float] | None  # west, south, east, north
    population: int
    vt_count: int = 0


class TourDocumentReader(ABC):
    """Tour documents a separate process can read: the object is pickled to a child process, which
    calls `documents` (reading the database on its own connection); in this process it iterates as
    the documents it was given. The full rebuild of the embedded index reads these in a child
    process, so reading and turning documents into rows (Python, under the GIL) does not take the
    GIL from the writers."""

    @abstractmethod
    def documents(self) -> Iterator[TourDocument]:
        """Every listable tour's document, in the rebuild's order (views descending), read afresh."""

    @abstractmethod
    def __iter__(self) -> Iterator[TourDocument]: ...
