"""Ads' ranks (spec §7 Ads `ranks`, `ranks/bulk`, `ranks/calc`; admins): a rank source's value for an
ad. The rows live with the tours' and creators' (app/tours/ranks.py does the bookkeeping for every
kind); this names ads. An ad's rank is the sum of its values: its index document carries it (every
change records an `index.ad` entry) and the serving (app/ads/serving.py) weighs it when it picks the
Sponsored cards. `ranks/calc` runs the shared calculation and re-indexes every served ad's rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from app.ads.models import Ad
from app.ads.queries import NOT_FOUND_MESSAGE, served_clause
from app.ads.schemas import AdRankOut, AdRanksPage, AdRankWrite
from app.classifications.models import Rank, RankEntityType
from app.core import outbox_topics
from app.core.errors import BadRequest, NotFound
from app.tours.ranks import (
    BulkResult,
    RankEntry,
    RankKind,
    add_rank,
    edit_rank,
    found_rank,
    put_ranks,
    rank_fields,
    ranks_page,
    ranks_query,
    request_calculation,
)
from app.tours.schemas import RankEdit

AD_RANKS = RankKind(RankEntityType.ad, outbox_topics.ad_changed)
UNKNOWN_ADS = "Unknown ads"


def _ad_ranks() -> Select[Any]:
    return ranks_query(AD_RANKS, Ad.id, Ad.title).join(Ad, Ad.id == Rank.entity_id)


def _out(row: Rank, source_name: str, ad_id: int, title: str) -> AdRankOut:
    return AdRankOut(**rank_fields(row, source_name), ad_id=ad_id, title=title)


def ad_ranks_page(
    db: Session, *, rank_source_id: int | None, ad_id: int | None, limit: int, offset: int
) -> AdRanksPage:
    """GET ranks: ads' rank values by source, highest first; optionally of one source or ad."""
    rows, total = ranks_page(
        db,
        _ad_ranks(),
        rank_source_id=rank_source_id,
        entity=Ad.id == ad_id if ad_id is not None else None,
        limit=limit,
        offset=offset,
    )
    return AdRanksPage(
        data=[_out(row, name, found_id, title) for row, name, found_id, title in rows],
        total_items=total,
        limit=limit,
        offset=offset,
    )


def ad_rank(db: Session, rank_id: int) -> AdRankOut:
    row, name, ad_id, title = found_rank(db, _ad_ranks(), rank_id)
    return _out(row, name, ad_id, title)


def add_ad_rank(db: Session, body: AdRankWrite) -> AdRankOut:
    if db.get(Ad, body.ad_id) is None:
        raise NotFound(NOT_FOUND_MESSAGE)
    entry = RankEntry(body.ad_id, body.rank_source_id, body.value, body.position)
    return ad_rank(db, add_rank(db, AD_RANKS, entry).id)


def edit_ad_rank(db: Session, body: RankEdit) -> AdRankOut:
    return ad_rank(db, edit_rank(db, AD_RANKS, body).id)


def put_ad_ranks(db: Session, items: Sequence[AdRankWrite]) -> BulkResult:
    wanted = sorted({item.ad_id for item in items})
    known = set(db.scalars(select(Ad.id).where(Ad.id.in_(wanted))))
    unknown = {f"ranks.{number}.ad_id": UNKNOWN_ADS for number, item in enumerate(items) if item.ad_id not in known}
    if unknown:
        raise BadRequest(UNKNOWN_ADS, fields=unknown)
    return put_ranks(db, AD_RANKS, [RankEntry(i.ad_id, i.rank_source_id, i.value, i.position) for i in items])


def calculate(db: Session) -> int:
    """ranks/calc: the shared calculation now (after the commit), and every served ad's document
    rewritten with its current rank. Returns how many ads were queued."""
    request_calculation(db)
    ids = list(db.scalars(select(Ad.id).where(served_clause())))
    for ad_id in ids:
        outbox_topics.ad_changed(db, ad_id)
    return len(ids)
