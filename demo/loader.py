"""Loading the demo corpus into a database (after the built-in dictionaries, which
app/classifications/seed.py loads on every start, demo or not).

`load_demo` inserts the
corpus with SQLAlchemy Core `insert()` in batches inside one transaction (a failed load leaves
nothing behind) and does nothing when the database already holds the demo (its admin account).

The search index is not touched here: `app.search.sync.ensure_index_built` derives it from the rows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, Table, bindparam, func, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from app.classifications import dictionaries as builtin
from app.classifications.seed import load_dictionaries
from app.core.settings import get_settings
from demo.corpus import (
    ADMIN_EMAIL,
    DEFAULT_SEED,
    CorpusConfig,
    DemoCorpus,
    DictionaryIds,
    IdOffsets,
    People,
    Row,
    default_anchor,
)
from demo.images import ensure_logos, ensure_preview_pool

BATCH_ROWS = 5000
Progress = Callable[[str], None]
# Tables whose ids the corpus assigns itself; PostgreSQL's sequences must be moved past them.
TABLES_WITH_EXPLICIT_IDS = ("users", "creators", "tours", "ads")


def _silent(_message: str) -> None:
    """The default progress reporter: say nothing."""


def _pairs(result: Iterable[Any]) -> dict[Any, Any]:
    """A two-column result as a dict from the first column to the second."""
    return {key: value for key, value in result}


# --- the demo corpus -----------------------------------------------------------------------------------------


@dataclass(slots=True)
class DemoLoadReport:
    loaded: bool  # False when the database already held the demo
    rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def load_demo(
    target: Engine | sessionmaker[Session],
    tours: int = 2000,
    creators: int = 100,
    progress: Progress | None = None,
    *,
    plain_users: int = 300,
    ads: int = 12,
    seed: int = DEFAULT_SEED,
    anchor: datetime | None = None,
    uploads_dir: Path | None = None,
    images: bool = True,
    batch_size: int = BATCH_ROWS,
    hash_password: Callable[[str], str] | None = None,
) -> DemoLoadReport:
    """Load the demo corpus unless it is there already.

    The pictures the rows refer to are drawn when missing, also when the rows were loaded before
    (a fresh data directory next to an old database); `images=False` skips them, e.g. in tests.
    """
    report_progress = progress or _silent
    started = time.monotonic()
    engine = _engine_of(target)
    config = CorpusConfig(
        tours=tours,
        creators=creators,
        plain_users=plain_users,
        ads=ads,
        seed=seed,
        anchor=anchor or default_anchor(),
        engagement_rows_up_to=min(tours, 2000),
    )
    pictures_dir = uploads_dir or get_settings().uploads_dir
    if _demo_present(engine):
        if images:
            _draw_images(config, People(config), pictures_dir, report_progress)
        report_progress("demo content is already loaded: nothing to do")
        return DemoLoadReport(loaded=False)
    with Session(engine) as session, session.begin():
        load_dictionaries(session)  # the corpus refers to them by id
    with engine.connect() as connection:
        corpus = DemoCorpus(config, _dictionary_ids(connection), _id_offsets(connection), hash_password)
    if images:
        _draw_images(config, corpus.people, pictures_dir, report_progress)
    rows = _insert_corpus(engine, corpus, report_progress, batch_size, started)
    return DemoLoadReport(loaded=True, rows=rows, seconds=time.monotonic() - started)


def _engine_of(target: Engine | sessionmaker[Session]) -> Engine:
    if isinstance(target, Engine):
        return target
    bind = target.kw.get("bind")
    if not isinstance(bind, Engine):
        raise TypeError("load_demo needs an Engine or a sessionmaker bound to one")
    return bind


def _tables() -> dict[str, Table]:
    import app.models

    return dict(app.models.metadata.tables)


def _demo_present(engine: Engine) -> bool:
    users = _tables()["users"]
    with engine.connect() as connection:
        return connection.execute(select(users.c.id).where(users.c.email == ADMIN_EMAIL)).first() is not None


def _dictionary_ids(connection: Connection) -> DictionaryIds:
    tables = _tables()
    categories, subcategories = tables["categories"], tables["subcategories"]
    category_ids = _pairs(connection.execute(select(categories.c.name, categories.c.id)))
    category_names = {category_id: name for name, category_id in category_ids.items()}
    subcategory_rows = connection.execute(select(subcategories.c.category_id, subcategories.c.name, subcategories.c.id))
    return DictionaryIds(
        categories=category_ids,
        subcategories={(category_names[category_id], name): row_id for category_id, name, row_id in subcategory_rows},
        media_types=_name_ids(connection, tables["media_types"], "name"),
        vendors=_name_ids(connection, tables["vendors"], "name", only=tables["vendors"].c.is_custom.is_(False)),
        capture_devices=_name_ids(connection, tables["capture_devices"], "camera_name"),
        tags=_builtin_tag_ids(connection, tables, category_ids),
    )


def _name_ids(connection: Connection, table: Table, name_column: str, only: Any = None) -> dict[str, int]:
    query = select(table.c[name_column], table.c.id)
    if only is not None:
        query = query.where(only)
    return _pairs(connection.execute(query))


def _builtin_tag_ids(connection: Connection, tables: dict[str, Table], category_ids: dict[str, int]) -> dict[str, int]:
    """Ids of the built-in tags by name, matched on their topic too (admins may add namesakes)."""
    media_type_ids = _name_ids(connection, tables["media_types"], "name")
    tags = tables["tags"]
    by_key = {
        (name, str(topic_type), topic_id): tag_id
        for name, topic_type, topic_id, tag_id in connection.execute(
            select(tags.c.name, tags.c.topic_type, tags.c.topic_id, tags.c.id)
        )
    }
    topic_ids = {builtin.TOPIC_CATEGORY: category_ids, builtin.TOPIC_MEDIA_TYPE: media_type_ids}
    return {
        spec.name: by_key[(spec.name, spec.topic_type, topic_ids[spec.topic_type][spec.topic_name])]
        for spec in builtin.TAGS
    }


def _id_offsets(connection: Connection) -> IdOffsets:
    tables = _tables()

    def highest(name: str) -> int:
        return int(connection.execute(select(func.coalesce(func.max(tables[name].c.id), 0))).scalar_one())

    return IdOffsets(users=highest("users"), creators=highest("creators"), tours=highest("tours"), ads=highest("ads"))


def _draw_images(config: CorpusConfig, people: People, uploads_dir: Path, progress: Progress) -> None:
    started = time.monotonic()
    previews = ensure_preview_pool(uploads_dir, config.seed, config.previews_per_category)
    logos = ensure_logos(uploads_dir, config.seed, people.logo_requests())
    if previews or logos:
        progress(f"images: {previews:,} previews and {logos:,} logos drawn ({time.monotonic() - started:.0f} s)")


class _Inserter:
    """Inserts row dicts into named tables in batches, counting rows and checking column names."""

    def __init__(self, connection: Connection, batch_size: int) -> None:
        self.connection = connection
        self.batch_size = batch_size
        self.tables = _tables()
        self.counts: dict[str, int] = {}
        self._checked: set[str] = set()

    def insert(self, table_name: str, rows: Sequence[Row]) -> None:
        if not rows:
            return
        table = self.tables[table_name]
        if table_name not in self._checked:
            _check_columns(table, rows[0])
            self._checked.add(table_name)
        for start in range(0, len(rows), self.batch_size):
            self.connection.execute(table.insert(), list(rows[start : start + self.batch_size]))
        self.counts[table_name] = self.counts.get(table_name, 0) + len(rows)


def _check_columns(table: Table, row: Row) -> None:
    # A corpus key the table lacks would otherwise be dropped silently by Core's insert.
    unknown = set(row) - set(table.c.keys())
    if unknown:
        raise ValueError(f"demo rows for {table.name} name unknown columns: {sorted(unknown)}")


def _insert_corpus(
    engine: Engine, corpus: DemoCorpus, progress: Progress, batch_size: int, started: float
) -> dict[str, int]:
    with engine.begin() as connection:
        inserter = _Inserter(connection, batch_size)
        for table_name, rows in (
            ("users", corpus.user_rows()),
            ("creators", corpus.creator_rows()),
            ("user_interests", corpus.interest_rows()),
            ("follows", corpus.follow_rows()),
        ):
            inserter.insert(table_name, rows)
        progress(f"people: {inserter.counts['users']:,} users, {inserter.counts.get('creators', 0):,} creators")
        _insert_tours(inserter, corpus, progress, batch_size, started)
        ads, ad_tags, ad_engagements = corpus.ad_rows()
        for table_name, rows in (("ads", ads), ("ad_tags", ad_tags), ("ad_engagements", ad_engagements)):
            inserter.insert(table_name, rows)
        _refresh_creator_counters(connection, corpus.offsets.creators)
        _move_sequences_past(connection, TABLES_WITH_EXPLICIT_IDS)
    progress(f"demo content loaded in {time.monotonic() - started:.1f} s")
    return inserter.counts


def _insert_tours(inserter: _Inserter, corpus: DemoCorpus, progress: Progress, batch_size: int, started: float) -> None:
    total = corpus.config.tours
    done = 0
    for batch in corpus.tour_batches(batch_size):
        for table_name, rows in batch.tables():
            inserter.insert(table_name, rows)
        done += len(batch.tours)
        progress(f"tours {done:,}/{total:,} ({time.monotonic() - started:.0f} s)")


def _refresh_creator_counters(connection: Connection, first_id_after: int) -> None:
    """Creators' counters from the rows just loaded: listed tours, their views and likes, followers.

    One grouped pass over the tours and one over the follows, then an update per creator: a
    correlated subquery per creator would rescan the tours through the status index instead.
    """
    tables = _tables()
    creators, tours, follows = tables["creators"], tables["tours"], tables["follows"]
    listed_totals = connection.execute(
        select(tours.c.creator_id, func.count(), func.sum(tours.c.views), func.sum(tours.c.likes))
        .where(tours.c.creator_id > first_id_after, tours.c.status == "active", tours.c.approval_state == "approved")
        .group_by(tours.c.creator_id)
    )
    counters = {
        creator_id: {"vt_count": count, "views": views, "likes": likes, "followers": 0}
        for creator_id, count, views, likes in listed_totals
    }
    follower_counts = connection.execute(
        select(follows.c.creator_id, func.count())
        .where(follows.c.creator_id > first_id_after)
        .group_by(follows.c.creator_id)
    )
    for creator_id, followers in follower_counts:
        counters.setdefault(creator_id, {"vt_count": 0, "views": 0, "likes": 0})["followers"] = followers
    if counters:
        connection.execute(
            update(creators)
            .where(creators.c.id == bindparam("creator_id"))
            .values(
                vt_count=bindparam("vt_count"),
                views=bindparam("views"),
                likes=bindparam("likes"),
                followers=bindparam("followers"),
            ),
            [{"creator_id": creator_id, **values} for creator_id, values in counters.items()],
        )


def _move_sequences_past(connection: Connection, table_names: Iterable[str]) -> None:
    # Rows were inserted with explicit ids; PostgreSQL's sequences do not notice, SQLite needs nothing.
    if connection.dialect.name != "postgresql":
        return
    for table_name in table_names:
        # is_called = false: the next id handed out is exactly MAX(id) + 1 (also right for an empty table).
        connection.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table_name}', 'id'), "
                f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table_name}), false)"
            )
        )
