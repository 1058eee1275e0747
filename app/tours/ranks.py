"""Ranks (spec §6 admins' "ranks"; §7 Media and Creators `ranks`): the value a rank source gives a
tour or a creator (one row per source and entity, `app/classifications/models.Rank`).

The rank calculation (`ranks.calc`, app/discovery/rank_calculation.py) reads them: a tour's "Trending" value
is a boost added to its trending score and its "Featured" value orders the featured tours that have
no place yet. The index documents carry the calculated scores, so a changed value shows in the feeds
after the next calculation: hourly, or at once through `ranks/calc`, which queues it after the
commit. Every change still records an index outbox entry for the entity (`index.tour`,
`index.creator`), so a document that comes to carry rank values follows without another change here.

The rows of both kinds are kept here; the creator calls (app/creators/ranks.py) name creators.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, Row, Select, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.classifications.models import Rank, RankEntityType, RankSource
from app.classifications.suggestions import EMBEDDINGS_OFF
from app.core import outbox_topics
from app.core.errors import BadRequest, Conflict, NotFound, field_error
from app.core.outbox import OutboxEntry
from app.core.settings import get_settings
from app.core.tasks import submit_after_commit
from app.discovery.rank_calculation import CALC_RANKS_TASK
from app.search.embeddings import EMBED_TOURS_TASK
from app.tours.models import Tour
from app.tours.queries import NOT_FOUND_MESSAGE
from app.tours.schemas import RankEdit, TourRankOut, TourRanksPage, TourRankWrite

UNKNOWN_SOURCE = "Unknown rank source"
RANK_NOT_FOUND = "Rank not found"
RANK_EXISTS = "This rank source already has a value for it: change that one (PUT)"
UNKNOWN_TOURS = "Unknown tours"
CALC_QUEUED = "The rank calculation has started"
EMBEDDINGS_QUEUED = "The tour embeddings are being computed"


@dataclass(frozen=True, slots=True)
class RankKind:
    entity_type: RankEntityType
    # Records the index outbox entry of one entity of this kind (its document carries rank values).
    entity_changed: Callable[[Session, int], OutboxEntry]


TOUR_RANKS = RankKind(RankEntityType.tour, outbox_topics.tour_changed)
CREATOR_RANKS = RankKind(RankEntityType.creator, outbox_topics.creator_changed)


@dataclass(frozen=True, slots=True)
class RankEntry:
    entity_id: int
    rank_source_id: int
    value: float
    position: int | None


@dataclass(frozen=True, slots=True)
class BulkResult:
    created: int
    updated: int


# ------------------------------------------------------------------------------ any entity


def ranks_query(kind: RankKind, *columns: Any) -> Select[Any]:
    """The rows of one kind with their source's name; callers join the entity and filter."""
    return (
        select(Rank, RankSource.name, *columns)
        .join(RankSource, RankSource.id == Rank.rank_source_id)
        .where(Rank.entity_type == kind.entity_type)
        .order_by(RankSource.name, Rank.value.desc(), Rank.id)
    )


def ranks_page(
    db: Session,
    statement: Select[Any],
    *,
    rank_source_id: int | None,
    entity: ColumnElement[bool] | None,
    limit: int,
    offset: int,
) -> tuple[Sequence[Row[*tuple[Any, ...]]], int]:
    """One page of a kind's ranks_query (optionally of one source, or of the one entity `entity`
    selects) and how many rows match."""
    source = Rank.rank_source_id == rank_source_id if rank_source_id is not None else None
    statement = statement.where(*(clause for clause in (source, entity) if clause is not None))
    return db.execute(statement.limit(limit).offset(offset)).all(), count_of(db, statement)


def found_rank(db: Session, statement: Select[Any], rank_id: int) -> Row[*tuple[Any, ...]]:
    """One row of a kind's ranks_query by rank id (404 when it is not of that kind)."""
    found = db.execute(statement.where(Rank.id == rank_id)).first()
    if found is None:
        raise NotFound(RANK_NOT_FOUND)
    return found


def rank_fields(row: Rank, source_name: str) -> dict[str, Any]:
    """The fields every kind's rank answer has besides the entity's own."""
    return {
        "id": row.id,
        "rank_source_id": row.rank_source_id,
        "rank_source": source_name,
        "value": row.value,
        "position": row.position,
        "updated_date": as_utc(row.updated_at),
    }


def count_of(db: Session, statement: Select[Any]) -> int:
    return int(db.scalar(select(func.count()).select_from(statement.order_by(None).subquery())) or 0)


def check_source(db: Session, rank_source_id: int, field: str = "rank_source_id") -> RankSource:
    source = db.get(RankSource, rank_source_id)
    if source is None:
        raise field_error(field, UNKNOWN_SOURCE)
    return source


def _existing(db: Session, kind: RankKind, entity_id: int, rank_source_id: int) -> Rank | None:
    return db.scalar(
        select(Rank).where(
            Rank.entity_type == kind.entity_type, Rank.entity_id == entity_id, Rank.rank_source_id == rank_source_id
        )
    )


def _flush_new(db: Session, rows: Sequence[Rank]) -> None:
    """The (source, kind, entity) key is unique in the table too: a row added meanwhile is a 409."""
    try:
        with db.begin_nested():
            db.add_all(rows)
            db.flush()
    except IntegrityError as exc:
        raise Conflict(RANK_EXISTS) from exc


def add_rank(db: Session, kind: RankKind, entry: RankEntry) -> Rank:
    check_source(db, entry.rank_source_id)
    if _existing(db, kind, entry.entity_id, entry.rank_source_id) is not None:
        raise Conflict(RANK_EXISTS)
    row = Rank(
        rank_source_id=entry.rank_source_id,
        entity_type=kind.entity_type,
        entity_id=entry.entity_id,
        value=entry.value,
        position=entry.position,
    )
    _flush_new(db, [row])
    kind.entity_changed(db, entry.entity_id)
    return row


def rank_row(db: Session, kind: RankKind, rank_id: int) -> Rank:
    row = db.get(Rank, rank_id)
    if row is None or row.entity_type != kind.entity_type:
        raise NotFound(RANK_NOT_FOUND)
    return row


def edit_rank(db: Session, kind: RankKind, body: RankEdit) -> Rank:
    row = rank_row(db, kind, body.id)
    row.value, row.position = body.value, body.position
    db.flush()
    kind.entity_changed(db, row.entity_id)
    return row


def delete_rank(db: Session, kind: RankKind, rank_id: int) -> None:
    row = rank_row(db, kind, rank_id)
    db.delete(row)
    db.flush()
    kind.entity_changed(db, row.entity_id)


def put_ranks(db: Session, kind: RankKind, entries: Sequence[RankEntry]) -> BulkResult:
    """Set every entry's value: the row of its source and entity changes, or is added. The last of
    two entries for the same row wins, as if they had been sent one after the other."""
    wanted = {(entry.rank_source_id, entry.entity_id): entry for entry in entries}
    for source_id in {source_id for source_id, _entity_id in wanted}:
        check_source(db, source_id, "ranks")
    stored = _stored_rows(db, kind, wanted.keys())
    new_rows: list[Rank] = []
    for (source_id, entity_id), entry in wanted.items():
        row = stored.get((source_id, entity_id))
        if row is None:
            new_rows.append(
                Rank(
                    rank_source_id=source_id,
                    entity_type=kind.entity_type,
                    entity_id=entity_id,
                    value=entry.value,
                    position=entry.position,
                )
            )
        else:
            row.value, row.position = entry.value, entry.position
    _flush_new(db, new_rows)
    db.flush()
    for entity_id in sorted({entity_id for _source_id, entity_id in wanted}):
        kind.entity_changed(db, entity_id)
    return BulkResult(created=len(new_rows), updated=len(wanted) - len(new_rows))


def _stored_rows(db: Session, kind: RankKind, keys: Iterable[tuple[int, int]]) -> dict[tuple[int, int], Rank]:
    entity_ids = sorted({entity_id for _source_id, entity_id in keys})
    rows = db.scalars(select(Rank).where(Rank.entity_type == kind.entity_type, Rank.entity_id.in_(entity_ids)))
    return {(row.rank_source_id, row.entity_id): row for row in rows}


def request_calculation(db: Session) -> None:
    """ranks/calc: the hourly calculation, now (after this request commits)."""
    submit_after_commit(db, CALC_RANKS_TASK)


def as_utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# ------------------------------------------------------------------------------ tours


def tour_rank_out(row: Rank, source_name: str, guid: str, title: str) -> TourRankOut:
    return TourRankOut(**rank_fields(row, source_name), guid=guid, title=title)


def _tour_ranks() -> Select[Any]:
    return ranks_query(TOUR_RANKS, Tour.guid, Tour.title).join(Tour, Tour.id == Rank.entity_id)


def tour_ranks_page(
    db: Session, *, rank_source_id: int | None, guid: str | None, limit: int, offset: int
) -> TourRanksPage:
    """GET ranks: tours' rank values by source, highest first; optionally of one source or tour."""
    rows, total = ranks_page(
        db,
        _tour_ranks(),
        rank_source_id=rank_source_id,
        entity=Tour.guid == guid if guid else None,
        limit=limit,
        offset=offset,
    )
    return TourRanksPage(
        data=[tour_rank_out(row, name, tour_guid, title) for row, name, tour_guid, title in rows],
        total_items=total,
        limit=limit,
        offset=offset,
    )


def tour_rank(db: Session, rank_id: int) -> TourRankOut:
    row, name, guid, title = found_rank(db, _tour_ranks(), rank_id)
    return tour_rank_out(row, name, guid, title)


def _tour_id(db: Session, guid: str) -> int:
    tour_id = db.scalar(select(Tour.id).where(Tour.guid == guid))
    if tour_id is None:
        raise NotFound(NOT_FOUND_MESSAGE)
    return tour_id


def add_tour_rank(db: Session, body: TourRankWrite) -> TourRankOut:
    entry = RankEntry(_tour_id(db, body.guid), body.rank_source_id, body.value, body.position)
    return tour_rank(db, add_rank(db, TOUR_RANKS, entry).id)


def edit_tour_rank(db: Session, body: RankEdit) -> TourRankOut:
    return tour_rank(db, edit_rank(db, TOUR_RANKS, body).id)


def put_tour_ranks(db: Session, items: Sequence[TourRankWrite]) -> BulkResult:
    guids = sorted({item.guid for item in items})
    ids: dict[str, int] = {
        guid: tour_id for guid, tour_id in db.execute(select(Tour.guid, Tour.id).where(Tour.guid.in_(guids)))
    }
    unknown = {f"ranks.{number}.guid": UNKNOWN_TOURS for number, item in enumerate(items) if item.guid not in ids}
    if unknown:
        raise BadRequest(UNKNOWN_TOURS, fields=unknown)
    entries = [RankEntry(ids[item.guid], item.rank_source_id, item.value, item.position) for item in items]
    return put_ranks(db, TOUR_RANKS, entries)


# ------------------------------------------------------------------------------ tour embeddings


def request_tour_embeddings(db: Session, guids: Sequence[str] | None) -> int | None:
    """POST embeddings: compute the embeddings of the named tours (or of every listed tour whose
    stored one is missing or out of date) in the background; returns how many tours were named."""
    if not get_settings().embeddings_enabled:
        raise BadRequest(EMBEDDINGS_OFF)
    if guids is None:
        submit_after_commit(db, EMBED_TOURS_TASK)
        return None
    wanted = sorted(set(guids))
    ids = sorted(db.scalars(select(Tour.id).where(Tour.guid.in_(wanted))))
    if len(ids) != len(wanted):
        raise field_error("tours", UNKNOWN_TOURS)
    if ids:
        submit_after_commit(db, EMBED_TOURS_TASK, ids=ids)
    return len(ids)
