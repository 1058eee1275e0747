"""Creators' ranks (spec §7 Creators `ranks`, `ranks/calc`; admins): a rank source's value for a
creator profile. The rows live with the tours' (app/tours/ranks.py); this names creators."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select
from sqlalchemy.orm import Session

from app.classifications.models import Rank
from app.core.errors import NotFound
from app.creators.models import Creator
from app.creators.schemas import CreatorRankOut, CreatorRanksPage, CreatorRankWrite
from app.creators.service import CREATOR_NOT_FOUND
from app.tours.ranks import (
    CREATOR_RANKS,
    RankEntry,
    add_rank,
    edit_rank,
    found_rank,
    rank_fields,
    ranks_page,
    ranks_query,
)
from app.tours.schemas import RankEdit


def _creator_ranks() -> Select[Any]:
    return ranks_query(CREATOR_RANKS, Creator.creator_name).join(Creator, Creator.id == Rank.entity_id)


def _out(row: Rank, source_name: str, creator_name: str) -> CreatorRankOut:
    return CreatorRankOut(**rank_fields(row, source_name), creator_id=row.entity_id, creator_name=creator_name)


def creator_ranks_page(
    db: Session, *, rank_source_id: int | None, creator_id: int | None, limit: int, offset: int
) -> CreatorRanksPage:
    """GET ranks: creators' rank values by source, highest first; optionally of one source or creator."""
    rows, total = ranks_page(
        db,
        _creator_ranks(),
        rank_source_id=rank_source_id,
        entity=Creator.id == creator_id if creator_id is not None else None,
        limit=limit,
        offset=offset,
    )
    return CreatorRanksPage(
        data=[_out(row, source_name, creator_name) for row, source_name, creator_name in rows],
        total_items=total,
        limit=limit,
        offset=offset,
    )


def creator_rank(db: Session, rank_id: int) -> CreatorRankOut:
    row, source_name, creator_name = found_rank(db, _creator_ranks(), rank_id)
    return _out(row, source_name, creator_name)


def add_creator_rank(db: Session, body: CreatorRankWrite) -> CreatorRankOut:
    if db.get(Creator, body.creator_id) is None:
        raise NotFound(CREATOR_NOT_FOUND)
    entry = RankEntry(body.creator_id, body.rank_source_id, body.value, body.position)
    return creator_rank(db, add_rank(db, CREATOR_RANKS, entry).id)


def edit_creator_rank(db: Session, body: RankEdit) -> CreatorRankOut:
    return creator_rank(db, edit_rank(db, CREATOR_RANKS, body).id)
