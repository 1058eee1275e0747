"""The feed planner of the embedded index: which read answers a grid page (a sort index walk, a small
candidate set sorted whole, a text posting list in popularity order, a seeded rotation for Random,
the Morton walk for Near Me), and the creator and ad listings."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from indexer.embedded.counts import stored_total
from indexer.embedded.nearby import HAVERSINE_SQL, cell_index_for, haversine_params, nearest_ids
from indexer.embedded.pages import CountCache, cards_by_ids, page_of_rows
from indexer.embedded.rows import fraction
from indexer.embedded.schema import TITLES_IN_PAIR
from indexer.embedded.sql import (
    in_clause,
    neighbourhood_ranges,
    tag_key_clauses,
    text_match,
    tour_where,
    without_token_filters,
    word_completions,
)
from indexer.embedded.text import Completions, match_expression
from indexer.queries import TEXT_TOTAL_CAP, CreatorQuery, FeedQuery, Page, Sort, TourFilter, rows_in_window

NEAR_SORT_WHOLE_SET = 20_000
# Above this many candidates a filter of categories and countries only, which its Morton key holds
# whole (nearby.cell_index_for), walks the key: ~1 ms whatever the count, where sorting the set costs
# ~1 µs a tour (13 ms for the 11,000 tours of one category in the US at 1M). Other filters make the
# walk read rows, so they keep NEAR_SORT_WHOLE_SET.
NEAR_SORT_WHOLE_SET_IN_KEY = 1_000
# Candidate sets up to this size are read whole and sorted instead of walking a sort index.
CANDIDATE_SORT_LIMIT = 20_000
TEXT_COUNT_CAP = TEXT_TOTAL_CAP  # text totals read "at least 1,000": more than anyone scrolls

ORDER_BY: dict[Sort, str] = {
    Sort.AZ: "title_key ASC, id ASC",
    Sort.ZA: "title_key DESC, id DESC",
    Sort.NEWEST: "created_at DESC, id DESC",
    Sort.LIKES: "likes DESC, id DESC",
    Sort.SAVES: "saves DESC, id DESC",
    Sort.SHARES: "shared DESC, id DESC",
    Sort.VIEWS: "views DESC, id DESC",
    Sort.TRENDING: "trending DESC, id DESC",
    Sort.FAVORITE: "favorite DESC, id DESC",
    Sort.POPULAR: "popular DESC, id DESC",
    Sort.FEATURED: "featured_order ASC, id DESC",
    Sort.RELEVANCE: "views DESC, id DESC",
}


CREATOR_ORDER_BY: dict[Sort, str] = {
    Sort.AZ: "name_key ASC, id ASC",
    Sort.ZA: "name_key DESC, id DESC",
    Sort.NEWEST: "created_at DESC, id DESC",
    Sort.LIKES: "likes DESC, id DESC",
    Sort.VIEWS: "views DESC, id DESC",
    Sort.POPULAR: "followers DESC, id DESC",
    Sort.FAVORITE: "followers DESC, id DESC",
}


def tour_page(connection: sqlite3.Connection, counts: CountCache, query: FeedQuery) -> Page:
    """A page of the tour grid: the planner picks how to read it (see the comments)."""
    # No page past MAX_RESULT_WINDOW, as on Elasticsearch: cut there, the total stays true.
    query = replace(query, limit=rows_in_window(query.offset, query.limit))
    tour_filter = query.filter
    if query.sort is Sort.FEATURED and not tour_filter.featured_only:
        tour_filter = replace(tour_filter, featured_only=True)
    completions = word_completions(connection)
    where, params = tour_where(tour_filter, completions)
    if query.sort is Sort.NEAR_ME and query.near is not None:
        return _near_me(connection, counts, tour_filter, where, params, query)
    selective = bool(tour_filter.tags or tour_filter.text)
    matches = None
    if tour_filter.text:
        matches = _text_matches(connection, counts, tour_filter, completions)
        total = len(matches)
        if total < TEXT_COUNT_CAP:
            # Every match is known: the page reads them by row id instead of matching the text again.
            # The same rows as `where` selects (the text and its token filters, the rest on the rows).
            where, params = f"rid IN ({','.join('?' * total)})", list(matches)
    else:
        total = count_tours(connection, counts, tour_filter)
    if total == 0:  # exact when zero, text counts too: no page to read
        return Page(ids=[], total=0)
    # A small candidate set (a tag, a search) is cheapest read whole and sorted; a large text
    # match is read in posting-list order, which is popularity order (rid = views rank).
    capped = bool(tour_filter.text) and total >= TEXT_COUNT_CAP
    small = selective and not capped and total <= CANDIDATE_SORT_LIMIT
    if query.sort is Sort.RANDOM:
        rows = _random_page(connection, counts, where, params, query, small=small)
    elif matches is not None and not small and query.sort in (Sort.VIEWS, Sort.RELEVANCE):
        if query.offset + query.limit <= len(matches):  # the counted rows hold the page
            rows = _rows_of_rids(connection, matches[query.offset : query.offset + query.limit])
        else:
            rows = _text_in_popularity_order(connection, tour_filter, query, completions)
    else:
        order = ORDER_BY.get(query.sort, ORDER_BY[Sort.NEWEST])
        order_params: list[Any] = []
        if query.sort is Sort.RELEVANCE and tour_filter.text:
            title_match = match_expression(tour_filter.text, column="title", completions=completions)
            if title_match:
                order = "rid IN (SELECT rowid FROM tour_text WHERE tour_text MATCH ?) DESC, " + order
                order_params.append(title_match)
        if small:
            order = _without_index(order)
        elif query.sort in (Sort.AZ, Sort.ZA) and len(tour_filter.categories) == len(tour_filter.countries) == 1:
            where = f"{where} AND {TITLES_IN_PAIR}"  # a seek to the pair in its title key (schema.py)
        rows = connection.execute(
            f"SELECT id, rid FROM tours WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?",
            (*params, *order_params, query.limit, query.offset),
        ).fetchall()
    return page_of_rows(connection, rows, total)


def count_tours(connection: sqlite3.Connection, counts: CountCache, tour_filter: TourFilter) -> int:
    """How many tours pass the filter: read from the kept counts when it holds only categories,
    countries and media types (counts.py), otherwise counted (and cached for the index generation).
    Without unlisted tours: every match less the unlisted matches, which a read of the (few) negative
    row ids finds, so the count's plan is the one it had before tours could be unlisted."""
    stored = stored_total(connection, tour_filter)
    if stored is not None:
        return stored
    in_tag_key = _tag_key_count(connection, counts, tour_filter)
    if in_tag_key is not None:
        return in_tag_key
    where, params = tour_where(replace(tour_filter, with_unlisted=True))
    total = counts.count(connection, "tours", where, params)
    if not tour_filter.with_unlisted and total:
        total -= counts.count(connection, "tours NOT INDEXED", f"rid < 0 AND {where}", params)
    return total


def _tag_key_count(connection: sqlite3.Connection, counts: CountCache, tour_filter: TourFilter) -> int | None:
    """Tags with at most categories and countries beside them: the tag key holds all of it, and
    listed tours are its positive row ids, so the count reads no `tours` row (a tag in a country
    counts one range of ix_tour_tags_country). None for any other filter."""
    rest = replace(tour_filter, tags=(), categories=(), countries=())
    # The key stores a tour without a country as "": a filter naming "" is counted on the tours.
    if not tour_filter.tags or not rest.is_empty() or "" in tour_filter.countries:
        return None
    params: list[Any] = []
    where = " AND ".join([*tag_key_clauses(tour_filter, params), "rid > 0"])
    if len(set(tour_filter.tags)) == 1:
        return counts.count(connection, "tour_tags", where, params)
    return counts.count(connection, f"(SELECT DISTINCT rid FROM tour_tags WHERE {where})", "1", params)


def _text_rest(tour_filter: TourFilter) -> tuple[str, list[Any], str]:
    """What a text search checks on the joined `tours` rows beside the posting list, and the posting
    list's own condition (listed tours are the positive row ids: FTS5 seeks past the rest)."""
    where, params = tour_where(replace(without_token_filters(tour_filter), with_unlisted=True))
    return where, params, "" if tour_filter.with_unlisted else " AND tour_text.rowid > 0"


def _text_matches(
    connection: sqlite3.Connection, counts: CountCache, tour_filter: TourFilter, completions: Completions
) -> Sequence[int]:
    """The row ids of the tours that match the text and the other filters, in row id order, up to
    TEXT_COUNT_CAP (their number is the total), by streaming the posting lists (an `IN (MATCH …)`
    subquery would read every match first)."""
    expression = text_match(tour_filter, completions)
    if expression is None:
        return ()
    where, params, listed = _text_rest(tour_filter)
    table, condition = "tour_text", f"tour_text MATCH ?{listed}"
    if where != "1":  # something to check on the rows; otherwise the posting lists alone answer
        table, condition = "tour_text JOIN tours ON tours.rid = tour_text.rowid", f"{condition} AND {where}"
    return counts.matches(connection, "tour_text.rowid", table, condition, (expression, *params), cap=TEXT_COUNT_CAP)


def _rows_of_rids(connection: sqlite3.Connection, rids: Sequence[int]) -> list[Any]:
    """(id, rid) of these rows, in the order given."""
    ids = dict(
        connection.execute(f"SELECT rid, id FROM tours WHERE rid IN ({','.join('?' * len(rids))})", rids).fetchall()
    )
    return [(ids[rid], rid) for rid in rids]


def _text_in_popularity_order(
    connection: sqlite3.Connection, tour_filter: TourFilter, query: FeedQuery, completions: Completions
) -> list[Any]:
    expression = text_match(tour_filter, completions)
    if expression is None:
        return []
    where, params, listed = _text_rest(tour_filter)
    return connection.execute(
        "SELECT id, rid FROM tour_text JOIN tours ON tours.rid = tour_text.rowid "
        f"WHERE tour_text MATCH ?{listed} AND {where} ORDER BY tour_text.rowid LIMIT ? OFFSET ?",
        (expression, *params, query.limit, query.offset),
    ).fetchall()


def _random_page(
    connection: sqlite3.Connection,
    counts: CountCache,
    where: str,
    params: Sequence[Any],
    query: FeedQuery,
    *,
    small: bool,
) -> list[Any]:
    """A rotation of the stored random key from a seed-derived start: stable for a seed, and
    every row appears exactly once across pages ([start, 1) first, then [0, start))."""
    start = fraction(query.seed or "default")
    if small:
        # A small candidate set (a tag, a search) is sorted whole in the same order, as the other
        # sorts are: walking the random key would pass over every tour of the filter's country
        # that lacks the tag (2.4 ms p50 at 1M for one tag in France).
        return connection.execute(
            f"SELECT id, rid FROM tours WHERE {where} ORDER BY +random_key < ?, +random_key, +id LIMIT ? OFFSET ?",
            (*params, start, query.limit, query.offset),
        ).fetchall()
    first = connection.execute(
        f"SELECT id, rid FROM tours WHERE {where} AND random_key >= ? ORDER BY random_key, id LIMIT ? OFFSET ?",
        (*params, start, query.limit, query.offset),
    ).fetchall()
    if len(first) == query.limit:
        return first
    in_first = counts.count(connection, "tours", f"{where} AND random_key >= ?", (*params, start))
    remaining = query.limit - len(first)
    second_offset = max(0, query.offset - in_first)
    second = connection.execute(
        f"SELECT id, rid FROM tours WHERE {where} AND random_key < ? ORDER BY random_key, id LIMIT ? OFFSET ?",
        (*params, start, remaining, second_offset),
    ).fetchall()
    return first + second


def _near_me(
    connection: sqlite3.Connection,
    counts: CountCache,
    tour_filter: TourFilter,
    where: str,
    params: Sequence[Any],
    query: FeedQuery,
) -> Page:
    """Tours by great-circle distance from the visitor (nearby.py), then id descending."""
    assert query.near is not None
    lat, lng = query.near
    located = f"{where} AND lat IS NOT NULL"
    total = stored_total(connection, tour_filter, located=True)
    if total is None:
        total = counts.count(connection, "tours", located, params)
    needed = query.offset + query.limit
    in_key = replace(tour_filter, categories=(), countries=(), with_unlisted=False).is_empty()
    if total > (NEAR_SORT_WHOLE_SET_IN_KEY if in_key else NEAR_SORT_WHOLE_SET) and not (
        tour_filter.tags or tour_filter.text
    ):
        index = cell_index_for(tour_filter.countries, tour_filter.categories)
        nearest = nearest_ids(connection, index=index, where=located, params=params, lat=lat, lng=lng, count=needed)
        page_ids = nearest[query.offset :]
        cards = cards_by_ids(connection, page_ids)
        return Page(ids=page_ids, total=total, docs=[cards[tour_id] for tour_id in page_ids])
    box_where, box_params = located, list(params)
    if total > NEAR_SORT_WHOLE_SET:
        # Tags and text filter through subqueries a tile walk would re-run at every probe: widen a
        # 3x3 block of tiles around the visitor until it holds the page, then sort that block.
        for level in (13, 11, 9, 7, 5):
            ranges = neighbourhood_ranges(lat, lng, level)
            cells = "(" + " OR ".join("cell BETWEEN ? AND ?" for _ in ranges) + ")"
            candidate_where = f"{located} AND {cells}"
            candidate_params = [*params, *(value for cell_range in ranges for value in cell_range)]
            inside = connection.execute(
                f"SELECT count(*) FROM (SELECT 1 FROM tours WHERE {candidate_where} LIMIT ?)",
                (*candidate_params, needed),
            ).fetchone()[0]
            if inside >= needed:
                box_where, box_params = candidate_where, candidate_params
                break
    rows = connection.execute(
        f"SELECT id, rid FROM tours WHERE {box_where} ORDER BY {HAVERSINE_SQL}, id DESC LIMIT ? OFFSET ?",
        (*box_params, *haversine_params(lat, lng), query.limit, query.offset),
    ).fetchall()
    return page_of_rows(connection, rows, total)


def creator_page(connection: sqlite3.Connection, counts: CountCache, query: CreatorQuery) -> Page:
    clauses, params = ["1"], []
    if query.text:
        expression = match_expression(query.text.lstrip("@"))
        if expression is None:
            return Page(ids=[], total=0)
        clauses.append("rid IN (SELECT rowid FROM creator_text WHERE creator_text MATCH ?)")
        params.append(expression)
    if query.countries:
        clauses.append("(" + " OR ".join("countries LIKE ?" for _ in query.countries) + ")")
        params.extend(f"%|{code}|%" for code in query.countries)
    if query.categories:
        clauses.append("(" + " OR ".join("categories LIKE ?" for _ in query.categories) + ")")
        params.extend(f"%|{category}|%" for category in query.categories)
    if query.user_ids is not None:
        clauses.append(in_clause("user_id", query.user_ids, params))
    where = " AND ".join(clauses)
    total = counts.count(connection, "creators", where, params)
    order = CREATOR_ORDER_BY.get(query.sort, CREATOR_ORDER_BY[Sort.VIEWS])
    rows = connection.execute(
        f"SELECT id, card FROM creators WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?",
        (*params, rows_in_window(query.offset, query.limit), query.offset),
    ).fetchall()
    return Page(ids=[row[0] for row in rows], total=total, docs=[json.loads(row[1]) for row in rows])


def ads_page(connection: sqlite3.Connection, limit: int, seed: str) -> Page:
    # The keys from the seed's start upwards, then round from 0: a rotation. (Not `(key - start + 1.0)
    # % 1.0`: SQLite's % casts to integers, which made every key 0 and left the seed no effect.)
    start = fraction(seed or "ads")
    rows = connection.execute(
        "SELECT id, card FROM ads ORDER BY random_key < ?, random_key, id LIMIT ?", (start, limit)
    ).fetchall()
    return Page(ids=[row[0] for row in rows], total=len(rows), docs=[json.loads(row[1]) for row in rows])


def _without_index(order: str) -> str:
    """`views DESC, id DESC` → `+views DESC, +id DESC`: a unary plus keeps SQLite from walking a sort
    index, so it drives the query from the (small) candidate set and sorts that instead."""
    terms = []
    for term in order.split(","):
        term = term.strip()
        terms.append(term if term.startswith(("rid IN", "+")) else f"+{term}")
    return ", ".join(terms)
