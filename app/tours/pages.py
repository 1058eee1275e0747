"""Tour listings shown as media cards (spec §2 creator profile, §3 Media cards, §7
`/v2/virtualtours/creator/...`, `user/media-tags/{user_id}`, `saved/{userid}`): a creator's grid and
map with the creator-profile filters, the tags of the creator's listed tours, the creator's
favourite (featured) tours, and a user's saved tours.

The grid and the map read the search index, as the feed does; favourites and saved tours are read
from the database and shaped into the same cards, with the viewer's is_save and is_owned. Only
listed tours show. Services never commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from app.classifications.models import Tag
from app.creators.models import Creator, CreatorFeaturedTour
from app.discovery import service as discovery
from app.discovery.schemas import MapAreaAnswer, MediaCard, Sorting
from app.engagement.models import TourSave
from app.tours.models import Tour, TourTag
from app.tours.queries import listed_clause
from app.tours.schemas import CreatorToursAnswer, MediaTagOut, MediaTagsAnswer, SavedToursPage
from app.tours.service import as_utc, count_rows
from app.users.models import User
from indexer.port import SearchIndex
from indexer.queries import BBox, FeedQuery, Sort, TourFilter

CREATOR_PAGE_SIZE = 50  # spec §9 "Creator media page size"
WORLD = BBox(west=-180, south=-85, east=180, north=85)

SORTING_TO_SORT: dict[Sorting, Sort] = {**discovery.SORTING_TO_SORT, Sorting.near_me: Sort.VIEWS}


# ------------------------------------------------------------------------------ creator pages


def _listed_tours_of(user_id: int) -> Select[Any]:
    return select(Tour.id).where(Tour.user_id == user_id, listed_clause())


def user_media_tags(session: Session, user_id: int) -> MediaTagsAnswer:
    discovery.creator_user(session, user_id)
    rows = session.execute(
        select(Tag.id, Tag.name, func.count(TourTag.tour_id))
        .join(TourTag, TourTag.tag_id == Tag.id)
        .where(Tag.is_active.is_(True), TourTag.tour_id.in_(_listed_tours_of(user_id)))
        .group_by(Tag.id, Tag.name)
        .order_by(func.count(TourTag.tour_id).desc(), Tag.name)
    )
    return MediaTagsAnswer(data=[MediaTagOut(id=tag_id, name=name, vt_count=count) for tag_id, name, count in rows])


@dataclass(frozen=True, slots=True)
class CreatorPageQuery:
    tour_filter: TourFilter
    sorting: Sorting
    limit: int
    offset: int
    include_favorites: bool


def creator_tours(
    session: Session, index: SearchIndex, *, viewer: User | None, user_id: int, query: CreatorPageQuery, locale: str
) -> CreatorToursAnswer:
    """The creator page's grid: the index lists (as the feed does), the database adds the viewer's flags."""
    discovery.creator_user(session, user_id)
    # The owner's page lists their unlisted tours too (app/tours/queries.py).
    scoped = replace(query.tour_filter, user_ids=(user_id,), with_unlisted=True)
    every_tour = TourFilter(user_ids=(user_id,), with_unlisted=True)
    page = index.feed(
        FeedQuery(
            filter=scoped,
            sort=SORTING_TO_SORT[query.sorting],
            limit=query.limit,
            offset=query.offset,
            seed=str(user_id),
        )
    )
    every = page.total if scoped == every_tour else index.feed(FeedQuery(filter=every_tour, limit=1)).total
    cards = [card for card in discovery.shape_cards(session, viewer, page.docs, locale) if isinstance(card, MediaCard)]
    favorites = _favorite_cards(session, viewer, user_id, locale) if query.include_favorites else []
    return CreatorToursAnswer(
        data=cards,
        favorite_tours=favorites,
        total_items=page.total,
        total_tours=every,
        status=200,
        limit=query.limit,
        offset=query.offset,
    )


def _favorite_cards(session: Session, viewer: User | None, user_id: int, locale: str) -> list[MediaCard]:
    """The creator's featured tours ('favorite_tours'), in the creator's order, listed ones only."""
    tours = list(
        session.scalars(
            select(Tour)
            .join(CreatorFeaturedTour, CreatorFeaturedTour.tour_id == Tour.id)
            .join(Creator, Creator.id == CreatorFeaturedTour.creator_id)
            .where(Creator.user_id == user_id, Tour.id.in_(_listed_tours_of(user_id)))
            .order_by(CreatorFeaturedTour.position)
        )
    )
    return _media_cards(session, viewer, tours, locale)


def _media_cards(session: Session, viewer: User | None, tours: Sequence[Tour], locale: str) -> list[MediaCard]:
    """Spec §3 Media cards of tours read from the database, with the viewer's is_save and is_owned."""
    saved = discovery.saved_among(session, viewer, [tour.id for tour in tours])
    now = datetime.now(UTC)
    return [
        discovery.media_card(
            {
                "type": "vt",
                "id": tour.id,
                "guid": tour.guid,
                "title": tour.title,
                "preview_picture": tour.preview_picture,
                "views": tour.views,
                "saves": tour.saves,
                "likes": tour.likes,
                "shared": tour.shared,
                "created_at": as_utc(tour.created_at).timestamp(),
                "media_type_id": tour.media_type_id,
                "userid": tour.user_id,
            },
            saved=tour.id in saved,
            user=viewer,
            now=now,
            locale=locale,
        )
        for tour in tours
    ]


def creator_map(
    session: Session,
    index: SearchIndex,
    *,
    viewer: User | None,
    user_id: int,
    tour_filter: TourFilter,
    zoom: float,
    locale: str,
) -> MapAreaAnswer:
    discovery.creator_user(session, user_id)
    scoped = replace(tour_filter, user_ids=(user_id,), with_unlisted=True)
    return discovery.map_area(session, index, viewer, scoped, WORLD, zoom, locale)


# ------------------------------------------------------------------------------ saved tours


def saved_tours_page(
    session: Session, *, owner: User, viewer: User, limit: int, offset: int, locale: str
) -> SavedToursPage:
    """GET saved/{userid}: the owner's saved tours that are still listed, newest save first. A saved
    tour that went back to drafts, or whose owner left, is left out until it is listed again."""
    statement = (
        select(Tour).join(TourSave, TourSave.tour_id == Tour.id).where(TourSave.user_id == owner.id, listed_clause())
    )
    newest_first = statement.order_by(TourSave.created_at.desc(), Tour.id.desc())
    tours = list(session.scalars(newest_first.limit(limit).offset(offset)))
    return SavedToursPage(
        data=_media_cards(session, viewer, tours, locale),
        total_items=count_rows(session, statement),
        limit=limit,
        offset=offset,
    )
