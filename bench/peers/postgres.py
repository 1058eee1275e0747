"""PostgreSQL as a team without a search engine would run the grid, the map and the typeahead: one
`tours` table with ordinary indexes, written to answer each call of the query set well.

- Feed: a partial b-tree (`WHERE listed`) per sort key, alone and behind category and behind country,
  each ending in `id` for the tie order, so a page is an index walk that stops after offset + 48
  rows; `(category_id, country)` and `(category_id, media_type_id)` for combined counts; GIN on the
  tag array, and on (country, tags) with btree_gin.
- Text: the folded words (corpus.fold) as a stored `tsvector` with GIN; prefix words as `w:*`, a
  quoted phrase as `w1 <-> w2` (rechecked per column, as FTS5 matches a phrase within one column).
- Near Me: the unit-sphere position as a `cube` with GiST (btree_gist for category and country
  in front): `ORDER BY pos <-> visitor` walks the index nearest first (chord length grows with the
  great-circle distance, so the order is exact).
- Map: the zoom-20 Morton code (`cell`) with a covering b-tree; a map view groups `cell >> shift`
  over the Morton ranges of the view, read range by range.
- Typeahead: `tsvector` prefix queries on the title and on a table of suggestion items (tags,
  places, creators), as the embedded index keeps them.
Totals are exact `count(*)` per call (text totals capped as ours are). JIT is off, queries run on
one core (no parallel workers) as ours do, work_mem is 64 MB, and every statement is planned with its
values (generic plans of prepared statements chose index walks 10-30x slower here).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import psycopg

from bench.peers.corpus import PeerTour, SuggestItem, fold
from indexer.embedded.feed import ORDER_BY
from indexer.embedded.pages import map_point_of_row
from indexer.embedded.pyramid import cell_keys, expansion_zoom, pyramid_can_answer, tag_pyramid_can_answer
from indexer.embedded.rows import fraction
from indexer.embedded.schema import PYRAMID_LEVELS, SORT_COLUMNS, TAG_PYRAMID_LEVELS
from indexer.embedded.sql import _cell_ranges_for_box, merge_ranges
from indexer.embedded.suggestions import _text_score, payload_suggestion
from indexer.embedded.text import words
from indexer.geo import MAX_LEVEL, cluster_level
from indexer.queries import (
    TEXT_TOTAL_CAP,
    BBox,
    Cluster,
    FeedQuery,
    MapAnswer,
    MapQuery,
    Page,
    Sort,
    Suggestion,
    SuggestKind,
    SuggestQuery,
    TourFilter,
    rows_in_window,
)

NEAR_TIES_SLACK = 16
ADMIN_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
DATABASE = "touratlas_peers"
# Settings a team would give a read-mostly database on this machine (per database, no server restart).
DATABASE_SETTINGS = {
    "work_mem": "64MB",
    "random_page_cost": "1.1",  # the data sits in the page cache
    "effective_cache_size": "8GB",
    "jit": "off",  # JIT compiles count(*) plans for tens of ms on a million rows
    "max_parallel_workers_per_gather": "0",  # one core per call, as the embedded index uses
    # psycopg prepares a statement at its fifth run; PostgreSQL's generic plan for it ignores the
    # values (tag 1 in France: a walk of every French tour, 91 ms instead of a 3 ms bitmap at 100k).
    "plan_cache_mode": "force_custom_plan",
}

TABLES = """
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE TABLE tours (
    id bigint PRIMARY KEY,
    listed boolean NOT NULL,
    user_id integer NOT NULL,
    category_id integer NOT NULL,
    subcategory_id integer,
    media_type_id integer NOT NULL,
    vendor_id integer NOT NULL,
    country text,
    lat double precision,
    lng double precision,
    cell bigint,
    title_key text COLLATE "C" NOT NULL,  -- byte order, as SQLite's BINARY
    created_at double precision NOT NULL,
    views bigint NOT NULL,
    likes bigint NOT NULL,
    saves bigint NOT NULL,
    shared bigint NOT NULL,
    favorite bigint NOT NULL,
    trending double precision NOT NULL,
    popular double precision NOT NULL,
    featured_order integer,
    random_key double precision NOT NULL,
    tags integer[] NOT NULL,
    title text NOT NULL,  -- folded words (corpus.fold)
    body text NOT NULL,
    title_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', title)) STORED,
    body_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED,
    pos cube GENERATED ALWAYS AS (
        CASE WHEN lat IS NULL OR lng IS NULL THEN NULL ELSE cube(ARRAY[
            cos(radians(lat)) * cos(radians(lng)), cos(radians(lat)) * sin(radians(lng)), sin(radians(lat))
        ]) END
    ) STORED
);
-- The card and map feature JSON (~2.6 KB a tour) beside the rows, as ours keeps them in tour_cards:
-- every scan, count and recheck of `tours` then reads a fraction of the pages.
CREATE TABLE tour_cards (
    id bigint PRIMARY KEY,
    card text NOT NULL,
    feature text NOT NULL
);
CREATE TABLE suggest_items (
    sid integer PRIMARY KEY,
    kind text NOT NULL,
    ref text NOT NULL,
    text text NOT NULL,
    folded text NOT NULL,
    weight double precision NOT NULL,
    topic_type text,
    topic_id integer,
    payload text NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', folded)) STORED
);
"""

# Title and body words: FTS5 searches both columns (a phrase within one, rechecked in tour_where).
WORDS = "(title_tsv || body_tsv)"
_TOUR_FIELDS = (
    "id, listed, user_id, category_id, subcategory_id, media_type_id, vendor_id, country, lat, lng, cell, "
    "title_key, created_at, views, likes, saves, shared, favorite, trending, popular, featured_order, random_key, "
    "tags, title, body"
)


def index_statements() -> list[str]:
    statements = []
    for column in SORT_COLUMNS:
        statements += [
            f"CREATE INDEX ON tours ({column}, id) WHERE listed",
            f"CREATE INDEX ON tours (category_id, {column}, id) WHERE listed",
            f"CREATE INDEX ON tours (country, {column}, id) WHERE listed",
        ]
    return [
        *statements,
        "CREATE INDEX ON tours (category_id, country) WHERE listed",
        "CREATE INDEX ON tours (media_type_id, created_at, id) WHERE listed",
        "CREATE INDEX ON tours (user_id, created_at, id)",  # a creator's page (unlisted too), newest first
        "CREATE INDEX ON tours (user_id, views, id)",  # ... and by views: one creator holds 74k tours at 1M
        "CREATE INDEX ON tours (category_id, media_type_id) WHERE listed",  # the 360° switch's totals
        "CREATE INDEX ON tours USING gin (tags) WHERE listed",
        "CREATE INDEX ON tours USING gin (country, tags) WHERE listed",  # btree_gin: country + tag in one index
        # Words with the commonest filters in one GIN (btree_gin): a search in a category is one
        # index read, never a heap recheck of every match in other categories.
        f"CREATE INDEX ON tours USING gin (({WORDS}), category_id, country) WHERE listed",
        "CREATE INDEX ON tours USING gin (title_tsv) WHERE listed",
        "CREATE INDEX ON tours (cell) INCLUDE (lat, lng, id) WHERE listed AND cell IS NOT NULL",
        "CREATE INDEX ON tours (category_id, cell) INCLUDE (lat, lng, id) WHERE listed AND cell IS NOT NULL",
        "CREATE INDEX ON tours USING gist (pos) WHERE listed AND pos IS NOT NULL",
        "CREATE INDEX ON tours USING gist (category_id, pos) WHERE listed AND pos IS NOT NULL",
        "CREATE INDEX ON tours USING gist (country, pos) WHERE listed AND pos IS NOT NULL",
        "CREATE INDEX ON suggest_items USING gin (tsv)",
        "CREATE INDEX ON suggest_items (kind, weight)",
    ]


def dsn(database: str) -> str:
    return f"host=127.0.0.1 port=5432 user=postgres dbname={database}"


def load(
    tours: Iterable[PeerTour], items: Sequence[SuggestItem], database: str = DATABASE, progress: Any = print
) -> dict[str, float]:
    """A fresh database holding the corpus, indexed and analysed; build times and size."""
    figures: dict[str, float] = {}
    with psycopg.connect(ADMIN_DSN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{database}"')
        for name, value in DATABASE_SETTINGS.items():
            admin.execute(f"ALTER DATABASE \"{database}\" SET {name} = '{value}'")
    with psycopg.connect(dsn(database), autocommit=True) as connection:
        connection.execute("SET maintenance_work_mem = '1GB'")
        connection.execute(TABLES)
        started = time.monotonic()
        count = _copy_tours(connection, tours, progress)
        _copy_items(connection, items)
        figures["copy_s"] = time.monotonic() - started
        started = time.monotonic()
        for statement in index_statements():
            connection.execute(statement)
        figures["index_s"] = time.monotonic() - started
        started = time.monotonic()
        connection.execute("VACUUM (ANALYZE) tours")  # the visibility map lets counts read indexes only
        connection.execute("VACUUM (ANALYZE) tour_cards")
        connection.execute("VACUUM (ANALYZE) suggest_items")
        figures["analyze_s"] = time.monotonic() - started
        figures["tours"] = count
        size = connection.execute("SELECT pg_database_size(current_database())").fetchone()
        figures["bytes"] = float(size[0]) if size else 0.0
    return figures


def _copy_tours(connection: psycopg.Connection[Any], tours: Iterable[PeerTour], progress: Any) -> int:
    count = 0
    # One COPY per connection at a time: the cards stream through a second one.
    with (
        psycopg.connect(connection.info.dsn, autocommit=True) as card_connection,
        connection.cursor() as cursor,
        card_connection.cursor() as card_cursor,
        cursor.copy(f"COPY tours ({_TOUR_FIELDS}) FROM STDIN") as copy,
        card_cursor.copy("COPY tour_cards (id, card, feature) FROM STDIN") as cards,
    ):
        for tour in tours:
            copy.write_row(
                (
                    tour.id,
                    tour.listed,
                    *tour[2:22],
                    list(tour.tags),
                    fold(tour.title),
                    fold(tour.body),
                )
            )
            cards.write_row((tour.id, tour.card, tour.feature))
            count += 1
            if count % 100_000 == 0:
                progress(f"  PostgreSQL: {count:,} tours copied")
    return count


def _copy_items(connection: psycopg.Connection[Any], items: Sequence[SuggestItem]) -> None:
    fields = "sid, kind, ref, text, folded, weight, topic_type, topic_id, payload"
    with connection.cursor() as cursor, cursor.copy(f"COPY suggest_items ({fields}) FROM STDIN") as copy:
        for item in items:
            copy.write_row(
                (item.sid, item.kind, item.ref, item.text, fold(item.text), item.weight, *item[5:8])  # type: ignore[misc]
            )


# ------------------------------------------------------------------------------------------- reads


class PostgresPeer:
    """The query set's calls answered by PostgreSQL, as the embedded index answers them."""

    name = "PostgreSQL"

    def __init__(self, database: str = DATABASE) -> None:
        self.connection = psycopg.connect(dsn(database), autocommit=True)
        self.trace: list[tuple[str, list[Any]]] | None = None  # statements run, while bench_peers explains

    def close(self) -> None:
        self.connection.close()

    def _rows(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        if self.trace is not None:
            self.trace.append((sql, list(params)))
        return self.connection.execute(sql, params).fetchall()  # type: ignore[arg-type]

    def _count(self, where: str, params: Sequence[Any], cap: int | None = None) -> int:
        if cap is None:
            row = self._rows(f"SELECT count(*) FROM tours WHERE {where}", params)
        else:
            row = self._rows(
                f"SELECT count(*) FROM (SELECT 1 FROM tours WHERE {where} LIMIT %s) AS hits", [*params, cap]
            )
        return int(row[0][0])

    # ------------------------------------------------------------------ feed

    def feed(self, query: FeedQuery) -> Page:
        query = replace(query, limit=rows_in_window(query.offset, query.limit))
        tour_filter = query.filter
        if query.sort is Sort.FEATURED:
            tour_filter = replace(tour_filter, featured_only=True)
        where, params = tour_where(tour_filter)
        if query.sort is Sort.NEAR_ME and query.near is not None:
            return self._near_me(where, params, query)
        total = self._count(where, params, cap=TEXT_TOTAL_CAP if tour_filter.text else None)
        if query.sort is Sort.RANDOM:
            rows = self._random_page(where, params, query)
        else:
            order, order_params = ORDER_BY.get(query.sort, ORDER_BY[Sort.NEWEST]), []
            if query.sort is Sort.RELEVANCE and tour_filter.text and total < TEXT_TOTAL_CAP:
                # Below the cap ours puts title matches first; at the cap it reads popularity order.
                order = "title_tsv @@ to_tsquery('simple', %s) DESC, " + order
                order_params.append(text_query(tour_filter.text))
            source = "tours"
            if tour_filter.text and total < TEXT_TOTAL_CAP:
                # Few matches (the capped count says so): read them through the word index, then
                # sort them. Left to itself the planner walked the category's sort index testing
                # every row's words, 0.5 s at 1M for a word no tour of the category holds.
                source = f"(SELECT * FROM tours WHERE {where} OFFSET 0) AS tours"
            rows = self._rows(
                f"SELECT id FROM {source} WHERE {where if source == 'tours' else 'true'} "
                f"ORDER BY {order} LIMIT %s OFFSET %s",
                [*params, *order_params, query.limit, query.offset],
            )
        return self._page_of(rows, total)

    def _page_of(self, rows: Sequence[tuple[Any, ...]], total: int) -> Page:
        """The page's cards, read by key once the page is known (as ours reads tour_cards)."""
        ids = [row[0] for row in rows]
        cards = dict(self._rows("SELECT id, card FROM tour_cards WHERE id = ANY(%s)", [ids])) if ids else {}
        return Page(ids=ids, total=total, docs=[json.loads(cards[tour_id]) for tour_id in ids])

    def _random_page(self, where: str, params: Sequence[Any], query: FeedQuery) -> list[tuple[Any, ...]]:
        """The rotation of the stored random key from the seed's start, as ours reads it."""
        start = fraction(query.seed or "default")
        first = self._rows(
            f"SELECT id FROM tours WHERE {where} AND random_key >= %s ORDER BY random_key, id LIMIT %s OFFSET %s",
            [*params, start, query.limit, query.offset],
        )
        if len(first) == query.limit:
            return first
        in_first = self._count(f"{where} AND random_key >= %s", [*params, start])
        second = self._rows(
            f"SELECT id FROM tours WHERE {where} AND random_key < %s ORDER BY random_key, id LIMIT %s OFFSET %s",
            [*params, start, query.limit - len(first), max(0, query.offset - in_first)],
        )
        return first + second

    def _near_me(self, where: str, params: Sequence[Any], query: FeedQuery) -> Page:
        assert query.near is not None
        located = f"{where} AND pos IS NOT NULL"
        total = self._count(located, params)
        # The GiST walk orders by distance alone; the outer sort puts equally near tours by id
        # (an incremental sort over the walk). NEAR_TIES_SLACK rows more keep ties at the cut.
        rows = self._rows(
            "SELECT id FROM (SELECT id, pos <-> cube(%s::float8[]) AS distance "
            f"FROM tours WHERE {located} ORDER BY distance LIMIT %s) AS nearest "
            "ORDER BY distance, id DESC LIMIT %s OFFSET %s",
            [
                unit_vector(*query.near),
                *params,
                query.offset + query.limit + NEAR_TIES_SLACK,
                query.limit,
                query.offset,
            ],
        )
        return self._page_of(rows, total)

    # ------------------------------------------------------------------ map

    def map_area(self, query: MapQuery) -> MapAnswer:
        """As indexer/embedded/pyramid.area_answer: whole cells of the view at the pyramid's levels
        (clusters when they hold more than max_points), otherwise the tours inside the view."""
        level = cluster_level(query.zoom)
        shift = 2 * (MAX_LEVEL - level)
        tour_filter = replace(query.filter, bounds=None)
        pyramid = (pyramid_can_answer(tour_filter) and level in PYRAMID_LEVELS) or (
            tag_pyramid_can_answer(tour_filter) and level in TAG_PYRAMID_LEVELS
        )
        if pyramid:
            cells = self._grouped_cells(tour_filter, _view_ranges(query.bbox, level), shift, exact_box=None)
            total = sum(cell[1] for cell in cells)
            if total > query.max_points:
                return self._clusters(cells, level, total)
        where, params = tour_where(replace(query.filter, bounds=query.bbox))
        where = f"{where} AND cell IS NOT NULL"
        total = self._count(where, params)
        if total <= query.max_points:
            rows = self._rows(f"SELECT feature, lat, lng FROM tours JOIN tour_cards USING (id) WHERE {where}", params)
            return MapAnswer(points=[map_point_of_row(row) for row in rows], clusters=[], total=total)
        cells = self._grouped_cells(tour_filter, _box_ranges(query.bbox), shift, exact_box=query.bbox)
        return self._clusters(cells, level, total)

    def _grouped_cells(
        self, tour_filter: TourFilter, ranges: list[tuple[int, int]], shift: int, exact_box: BBox | None
    ) -> list[tuple[int, int, float, float, int]]:
        """(key, tours, mean lat, mean lng, least id) per cell of `shift`, over the Morton ranges,
        each range one walk of the (category, cell) or (cell) covering index."""
        where, params = tour_where(tour_filter)
        if exact_box is not None:
            where = f"{where} AND lat BETWEEN %s AND %s AND " + (
                "(lng >= %s OR lng <= %s)" if exact_box.crosses_antimeridian() else "lng BETWEEN %s AND %s"
            )
            params += [exact_box.south, exact_box.north, exact_box.west, exact_box.east]
        return self._rows(
            f"SELECT cell >> {shift} AS key, count(*), avg(lat), avg(lng), min(id) "
            "FROM unnest(%s::bigint[], %s::bigint[]) AS r(lo, hi) "
            f"JOIN tours ON cell BETWEEN r.lo AND r.hi WHERE {where} GROUP BY key",
            [[low for low, _ in ranges], [high for _, high in ranges], *params],
        )  # type: ignore[return-value]

    def _clusters(self, cells: list[tuple[int, int, float, float, int]], level: int, total: int) -> MapAnswer:
        singles = [cell[4] for cell in cells if cell[1] == 1]
        rows = (
            self._rows("SELECT feature, lat, lng FROM tours JOIN tour_cards USING (id) WHERE id = ANY(%s)", [singles])
            if singles
            else []
        )
        clusters = [
            Cluster(lat=lat, lng=lng, count=count, expansion_zoom=expansion_zoom(level), cell=f"{level}/{key}")
            for key, count, lat, lng, _ in cells
            if count > 1
        ]
        return MapAnswer(points=[map_point_of_row(row) for row in rows], clusters=clusters, total=total)

    # ------------------------------------------------------------------ typeahead

    def suggest(self, query: SuggestQuery) -> list[Suggestion]:
        text, kinds = query.text.strip(), query.kinds
        if text.startswith("#"):
            kinds, text = (SuggestKind.TAG,), text[1:]
        elif text.startswith("@"):
            kinds, text = (SuggestKind.CREATOR,), text[1:]
        tsquery = text_query(text)
        if not tsquery:
            return []
        typed = " ".join(words(text))
        found: list[Suggestion] = []
        for kind in kinds:
            if kind is SuggestKind.TOUR:
                found += self._suggest_tours(tsquery, query.limit, typed)
            else:
                found += self._suggest_items(kind, tsquery, query, typed)
        found.sort(key=lambda item: item.score, reverse=True)
        return found[: query.limit]

    def _suggest_tours(self, tsquery: str, limit: int, typed: str) -> list[Suggestion]:
        rows = self._rows(
            "SELECT id, card, category_id, user_id, views FROM tours JOIN tour_cards USING (id) "
            "WHERE listed AND title_tsv @@ to_tsquery('simple', %s) ORDER BY views DESC, id DESC LIMIT %s",
            [tsquery, limit * 3],
        )
        return [tour_suggestion(*row, typed=typed) for row in rows]

    def _suggest_items(self, kind: SuggestKind, tsquery: str, query: SuggestQuery, typed: str) -> list[Suggestion]:
        clauses = ["kind = %s", "tsv @@ to_tsquery('simple', %s)"]
        params: list[Any] = [kind.value, tsquery]
        if kind is SuggestKind.TAG and (query.category_id is not None or query.media_type_id is not None):
            topics = []
            for topic_type, topic_id in (("category", query.category_id), ("media_type", query.media_type_id)):
                if topic_id is not None:
                    topics.append("(topic_type = %s AND topic_id = %s)")
                    params += [topic_type, topic_id]
            clauses.append("(" + " OR ".join(topics) + ")")
        rows = self._rows(
            f"SELECT ref, text, weight, payload FROM suggest_items WHERE {' AND '.join(clauses)} "
            "ORDER BY weight DESC LIMIT %s",
            [*params, query.limit * 3],
        )
        return [item_suggestion(kind, *row, typed=typed) for row in rows]

    def explain(self, sql: str, params: Sequence[Any]) -> str:
        rows = self._rows(f"EXPLAIN (ANALYZE, BUFFERS) {sql}", params)
        return "\n".join(row[0] for row in rows)


# ------------------------------------------------------------------------------------------- shared


def tour_where(tour_filter: TourFilter) -> tuple[str, list[Any]]:
    """The WHERE clause of a TourFilter over `tours` (%s parameters)."""
    clauses: list[str] = [] if tour_filter.with_unlisted else ["listed"]
    params: list[Any] = []
    for column, values in (
        ("category_id", tour_filter.categories),
        ("subcategory_id", tour_filter.subcategories),
        ("country", tour_filter.countries),
        ("vendor_id", tour_filter.vendors),
        ("media_type_id", tour_filter.media_types),
    ):
        if values:
            clauses.append(_equal_any(column, values, params))
    if tour_filter.user_ids is not None:
        clauses.append(_equal_any("user_id", tour_filter.user_ids, params))
    if tour_filter.tour_ids is not None:
        clauses.append(_equal_any("id", tour_filter.tour_ids, params))
    if (either := tour_filter.saved_or_followed) is not None:
        clauses.append("(user_id = ANY(%s) OR id = ANY(%s))")
        params += [list(either.followed_user_ids), list(either.saved_tour_ids)]
    if tour_filter.tags:
        clauses.append("tags && %s::integer[]")
        params.append(list(tour_filter.tags))
    if tour_filter.text and (tsquery := text_query(tour_filter.text)):
        clauses.append(f"{WORDS} @@ to_tsquery('simple', %s)")
        params.append(tsquery)
        if is_phrase(tour_filter.text):
            # FTS5 matches a phrase within one column; `tsv` joins title and body.
            clauses.append("(title_tsv @@ to_tsquery('simple', %s) OR body_tsv @@ to_tsquery('simple', %s))")
            params += [tsquery, tsquery]
    if tour_filter.bounds is not None:
        box_sql, box_params = box_clauses(tour_filter.bounds)
        clauses.append(box_sql)
        params += box_params
    if tour_filter.featured_only:
        clauses.append("featured_order IS NOT NULL")
    if tour_filter.only_media_types is not None:
        clauses.append(_equal_any("media_type_id", tour_filter.only_media_types, params))
    if tour_filter.created_from is not None:
        clauses.append("created_at >= %s")
        params.append(tour_filter.created_from)
    if tour_filter.created_before is not None:
        clauses.append("created_at < %s")
        params.append(tour_filter.created_before)
    return " AND ".join(clauses) or "true", params


# psycopg sends a small Python int as smallint: `category_id = 1::int2` is a cross-type comparison,
# which btree_gin's operator classes do not index, so the word + category GIN lost its category
# (a heap recheck of every match in every category). Parameters take the column's type.
COLUMN_TYPES = {"id": "bigint", "country": "text"}


def _equal_any(column: str, values: Sequence[Any], params: list[Any]) -> str:
    if not values:
        return "false"
    kind = COLUMN_TYPES.get(column, "integer")
    if len(values) == 1:
        params.append(values[0])
        return f"{column} = %s::{kind}"
    params.append(list(values))
    return f"{column} = ANY(%s::{kind}[])"


def box_clauses(bounds: BBox) -> tuple[str, list[Any]]:
    """Inside the box: its Morton ranges (for the cell index) and the exact lat/lng test."""
    clauses, params = ["lat BETWEEN %s AND %s"], [bounds.south, bounds.north]
    ranges = _cell_ranges_for_box(bounds)
    if ranges:
        clauses.insert(0, "(" + " OR ".join("cell BETWEEN %s AND %s" for _ in ranges) + ")")
        params = [value for cell_range in ranges for value in cell_range] + params
    if bounds.crosses_antimeridian():
        clauses.append("(lng >= %s OR lng <= %s)")
    else:
        clauses.append("lng BETWEEN %s AND %s")
    params += [bounds.west, bounds.east]
    return " AND ".join(clauses), params


def _view_ranges(bbox: BBox, level: int) -> list[tuple[int, int]]:
    """Zoom-20 Morton ranges of the whole cells at `level` the view touches (pyramid.cell_keys)."""
    shift = 2 * (MAX_LEVEL - level)
    return merge_ranges(sorted((key << shift, ((key + 1) << shift) - 1) for key in cell_keys(bbox, level)))


def _box_ranges(bbox: BBox) -> list[tuple[int, int]]:
    return _cell_ranges_for_box(bbox) or [(0, (1 << (2 * MAX_LEVEL)) - 1)]


def is_phrase(text: str) -> bool:
    return text.strip().startswith(("'", '"'))


def text_query(text: str) -> str:
    """The visitor's words as a tsquery of folded words: each a prefix, all required; a leading
    quote asks for the exact phrase (indexer/embedded/text.match_expression)."""
    folded = fold(text).split()
    if not folded:
        return ""
    if is_phrase(text):
        return " <-> ".join(folded)
    return " & ".join(f"{word}:*" for word in folded)


def unit_vector(lat: float, lng: float) -> list[float]:
    import math

    phi, lam = math.radians(lat), math.radians(lng)
    return [math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi)]


def tour_suggestion(
    tour_id: int, card_json: str, category_id: int, user_id: int, views: int, *, typed: str
) -> Suggestion:
    """A tour suggestion as indexer/embedded/suggestions.py makes it."""
    import math

    card = json.loads(card_json)
    return Suggestion(
        type=SuggestKind.TOUR,
        id=str(card.get("guid", tour_id)),
        text=card.get("title", ""),
        creator_id=user_id,
        category=category_id,
        score=_text_score(card.get("title", ""), typed) + 0.1 * math.log1p(views),
    )


def item_suggestion(
    kind: SuggestKind, ref: str, text: str, weight: float, payload_json: str, *, typed: str
) -> Suggestion:
    return payload_suggestion(kind, ref, text, payload_json, _text_score(text, typed) + 0.1 * math.log1p(weight))


def drop(database: str) -> None:
    with psycopg.connect(ADMIN_DSN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
