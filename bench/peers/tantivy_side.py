"""tantivy (the Python binding) as the search engine beside the app's database: the same documents
in a tantivy index, the calls of the query set translated to its queries, sorts and aggregations.

What the prototype measured here shaped it (shared/research/embedded-index.md): hits are read as
fast-field values, never as stored documents (~1 ms for 48); the card JSON comes from a key-value
read of the reference's `tour_cards` by row id, the same read ours makes; Morton keys of every
zoom level are fast fields, so a map view is a terms aggregation; filters are indexed terms.
tantivy sorts on one field: ties come back in its own document order, not by id (answers.py).
Near Me has no distance sort here: it walks the Morton quadtree best first, as nearby.py does.

Install: pip install -c constraints.txt -e '.[bench]' (or .venv/bin/pip install -c constraints.txt tantivy).
"""

from __future__ import annotations

import heapq
import json
import shutil
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.peers.answers import haversine
from bench.peers.corpus import PeerTour, SuggestItem, fold
from bench.peers.postgres import is_phrase, item_suggestion, tour_suggestion
from indexer.embedded.nearby import PROBE_ROWS, _child_floors, haversine_params
from indexer.embedded.pages import map_point_of_row
from indexer.embedded.pyramid import cell_keys, expansion_zoom, pyramid_can_answer, tag_pyramid_can_answer
from indexer.embedded.rows import fraction
from indexer.embedded.schema import PYRAMID_LEVELS, TAG_PYRAMID_LEVELS
from indexer.embedded.text import words
from indexer.geo import MAX_LEVEL, cluster_level, interleave, mercator_xy
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

try:
    import tantivy
except ImportError:  # the bench says how to install it
    tantivy = None  # type: ignore[assignment]

INSTALL_HINT = "tantivy is not installed: .venv/bin/pip install -c constraints.txt tantivy (the `bench` extra)"
LEVELS = range(MAX_LEVEL + 1)
BOX_TILES = 16  # a box filters by its tiles at the deepest level where it spans at most this many
WORDS = "folded_words"
SORT_FIELD: dict[Sort, tuple[str, bool]] = {  # field, ascending
    Sort.NEWEST: ("created_at", False),
    Sort.LIKES: ("likes", False),
    Sort.SAVES: ("saves", False),
    Sort.SHARES: ("shared", False),
    Sort.VIEWS: ("views", False),
    Sort.TRENDING: ("trending", False),
    Sort.FAVORITE: ("favorite", False),
    Sort.POPULAR: ("popular", False),
    Sort.FEATURED: ("featured_order", True),
    Sort.RELEVANCE: ("views", False),
}
AGGREGATION_BUCKETS = 1_000_000


def version() -> str:
    """The binding's package version (tantivy.__version__ names the Rust crate and index format)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as package_version

    try:
        return package_version("tantivy")
    except PackageNotFoundError:
        return "not installed"


def available() -> str | None:
    """None when tantivy can be imported, else how to install it."""
    return None if tantivy is not None else INSTALL_HINT


def _tour_schema() -> Any:
    builder = tantivy.SchemaBuilder()
    for name in ("id", "rid_plus"):  # rid_plus: the row id + 2**40 (unsigned; unlisted are negative)
        builder.add_unsigned_field(name, indexed=True, fast=True)
    for name in ("user_id", "category_id", "subcategory_id", "media_type_id", "vendor_id", "tags"):
        builder.add_unsigned_field(name, indexed=True, fast=True)
    builder.add_boolean_field("listed", indexed=True, fast=True)
    builder.add_boolean_field("located", indexed=True, fast=True)
    builder.add_boolean_field("featured", indexed=True, fast=True)
    builder.add_text_field("country", tokenizer_name="raw")
    # A-Z sorts on the first 8 bytes of the title as a number: sorting on a text fast field costs
    # 30-90 ms deep in the results (research notes). Titles equal in those bytes are put in order
    # by the full title afterwards (_title_page).
    builder.add_unsigned_field("title_prefix", indexed=True, fast=True)
    for name in ("views", "likes", "saves", "shared", "favorite", "featured_order"):
        builder.add_unsigned_field(name, indexed=True, fast=True)
    for name in ("created_at", "trending", "popular", "random_key", "lat", "lng"):
        builder.add_float_field(name, indexed=True, fast=True)
    builder.add_unsigned_field("cell", indexed=True, fast=True)
    # The Morton key of the tour's tile at every level, as indexed terms (a tile is one term: range
    # queries on a fast field scan the column, 3-10x slower in the research notes) and fast fields
    # (a map view groups by them).
    for level in LEVELS:
        builder.add_unsigned_field(f"k{level}", indexed=True, fast=True)
    builder.add_text_field("title", tokenizer_name=WORDS)
    builder.add_text_field("body", tokenizer_name=WORDS)
    return builder.build()


def _item_schema() -> Any:
    builder = tantivy.SchemaBuilder()
    builder.add_unsigned_field("sid", indexed=True, fast=True)
    builder.add_text_field("kind", tokenizer_name="raw")
    builder.add_text_field("text", tokenizer_name=WORDS)
    builder.add_float_field("weight", fast=True)
    builder.add_text_field("topic", tokenizer_name="raw")
    return builder.build()


def _register(index: Any) -> Any:
    """Folded words split on spaces (corpus.fold did the rest): registered at every open."""
    index.register_tokenizer(WORDS, tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace()).build())
    return index


RID_OFFSET = 1 << 40


def load(
    tours: Iterable[PeerTour], items: Sequence[SuggestItem], directory: Path, progress: Any = print
) -> dict[str, float]:
    """A fresh tantivy index of the corpus under `directory` (tours/ and items/): build time and size."""
    if directory.exists():
        shutil.rmtree(directory)
    (directory / "tours").mkdir(parents=True)
    (directory / "items").mkdir(parents=True)
    started = time.monotonic()
    schema = _tour_schema()
    index = _register(tantivy.Index(schema, path=str(directory / "tours")))
    writer = index.writer(heap_size=1_000_000_000, num_threads=2)
    count = 0
    for tour in tours:
        # from_dict types the values by the schema (keyword arguments would make every int an i64).
        writer.add_document(tantivy.Document.from_dict(_tour_fields(tour), schema))
        count += 1
        if count % 100_000 == 0:
            progress(f"  tantivy: {count:,} tours added")
    writer.commit()
    writer.wait_merging_threads()
    items_index = _register(tantivy.Index(_item_schema(), path=str(directory / "items")))
    item_writer = items_index.writer(heap_size=100_000_000, num_threads=1)
    for item in items:
        topic = f"{item.topic_type}:{item.topic_id}" if item.topic_type else ""
        fields = {"sid": item.sid, "kind": item.kind, "text": fold(item.text), "weight": item.weight, "topic": topic}
        item_writer.add_document(tantivy.Document.from_dict(fields, items_index.schema))
    item_writer.commit()
    item_writer.wait_merging_threads()
    size = sum(path.stat().st_size for path in directory.rglob("*") if path.is_file())
    return {"build_s": time.monotonic() - started, "tours": count, "bytes": float(size)}


def _tour_fields(tour: PeerTour) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "id": tour.id,
        "rid_plus": tour.rid + RID_OFFSET,
        "user_id": tour.user_id,
        "tags": list(tour.tags),
        "category_id": tour.category_id,
        "media_type_id": tour.media_type_id,
        "vendor_id": tour.vendor_id,
        "listed": tour.listed,
        "located": tour.cell is not None,
        "featured": tour.featured_order is not None,
        "title_prefix": title_prefix(tour.title_key),
        "views": tour.views,
        "likes": tour.likes,
        "saves": tour.saves,
        "shared": tour.shared,
        "favorite": tour.favorite,
        "created_at": tour.created_at,
        "trending": tour.trending,
        "popular": tour.popular,
        "random_key": tour.random_key,
        "title": fold(tour.title),
        "body": fold(tour.body),
    }
    if tour.subcategory_id is not None:
        fields["subcategory_id"] = tour.subcategory_id
    if tour.country:
        fields["country"] = tour.country
    if tour.featured_order is not None:
        fields["featured_order"] = tour.featured_order
    if tour.cell is not None:
        fields.update(lat=tour.lat, lng=tour.lng, cell=tour.cell)
        for level in LEVELS:
            fields[f"k{level}"] = tour.cell >> (2 * (MAX_LEVEL - level))
    return fields


class TantivyPeer:
    """The query set's calls answered by tantivy, as the embedded index answers them."""

    name = "tantivy"

    def __init__(self, directory: Path, reference: Path) -> None:
        self.index = _register(tantivy.Index.open(str(directory / "tours")))
        self.items = _register(tantivy.Index.open(str(directory / "items")))
        self.schema = self.index.schema
        self.item_schema = self.items.schema
        self.searcher = self.index.searcher()
        self.item_searcher = self.items.searcher()
        # The key-value store of cards and suggestion payloads (see the module's docstring).
        self.store = sqlite3.connect(f"file:{reference}?mode=ro", uri=True, check_same_thread=False)

    def close(self) -> None:
        self.store.close()

    # ------------------------------------------------------------------ helpers

    def _ids(self, hits: Sequence[Any], field: str = "id") -> list[int]:
        return self.searcher.fast_field_values(field, [address for _, address in hits])  # type: ignore[no-any-return]

    def _cards(self, hits: Sequence[Any]) -> list[dict[str, Any]]:
        rids = [value - RID_OFFSET for value in self._ids(hits, "rid_plus")]
        marks = ",".join("?" * len(rids)) or "NULL"
        cards = dict(self.store.execute(f"SELECT tour_rid, card FROM tour_cards WHERE tour_rid IN ({marks})", rids))
        return [json.loads(cards[rid]) for rid in rids]

    def _features(self, hits: Sequence[Any]) -> list[Any]:
        rids = [value - RID_OFFSET for value in self._ids(hits, "rid_plus")]
        return self._features_of_rids(rids)

    def _features_of_rids(self, rids: Sequence[int]) -> list[Any]:
        marks = ",".join("?" * len(rids)) or "NULL"
        rows = self.store.execute(
            f"SELECT feature, lat, lng FROM tours JOIN tour_cards ON tour_rid = rid WHERE rid IN ({marks})", list(rids)
        )
        return [map_point_of_row(row) for row in rows]

    def _count(self, query: Any) -> int:
        return int(self.searcher.search(query, limit=1, count=True).count)  # limit=0 crashes (research notes)

    def _page(self, query: Any, sort: tuple[str, bool] | None, limit: int, offset: int) -> tuple[list[Any], int]:
        if limit <= 0:
            return [], self._count(query)
        if sort is None:
            result = self.searcher.search(query, limit=limit, offset=offset, count=True)
        else:
            field, ascending = sort
            order = tantivy.Order.Asc if ascending else tantivy.Order.Desc
            result = self.searcher.search(
                query, limit=limit, offset=offset, count=True, order_by_field=field, order=order
            )
        return result.hits, int(result.count)

    # ------------------------------------------------------------------ feed

    def feed(self, query: FeedQuery) -> Page:
        query = replace(query, limit=rows_in_window(query.offset, query.limit))
        tour_filter = query.filter
        if query.sort is Sort.FEATURED:
            tour_filter = replace(tour_filter, featured_only=True)
        filter_query = self.tour_query(tour_filter)
        if query.sort is Sort.NEAR_ME and query.near is not None:
            return self._near_me(tour_filter, query)
        if query.sort is Sort.RANDOM:
            hits, total = self._random_page(filter_query, query)
        elif query.sort in (Sort.AZ, Sort.ZA):
            hits, total = self._title_page(filter_query, query.sort is Sort.AZ, query.limit, query.offset)
        elif query.sort is Sort.RELEVANCE and tour_filter.text:
            hits, total = self._relevance_page(filter_query, tour_filter.text, query)
        else:
            hits, total = self._page(filter_query, SORT_FIELD.get(query.sort), query.limit, query.offset)
        if tour_filter.text:
            total = min(total, TEXT_TOTAL_CAP)
        return Page(ids=self._ids(hits), total=total, docs=self._cards(hits))  # type: ignore[arg-type]

    def _relevance_page(self, filter_query: Any, text: str, query: FeedQuery) -> tuple[list[Any], int]:
        """Below the text cap ours puts title matches first, then views; at the cap, views."""
        hits, total = self._page(filter_query, ("views", False), query.limit, query.offset)
        if total >= TEXT_TOTAL_CAP:
            return hits, total
        in_title = self._boolean(
            [(tantivy.Occur.Must, filter_query), (tantivy.Occur.Must, self._text(text, ("title",)))]
        )
        titled, in_title_count = self._page(in_title, ("views", False), query.limit, query.offset)
        if len(titled) == query.limit:
            return titled, total
        rest = self._boolean(
            [(tantivy.Occur.Must, filter_query), (tantivy.Occur.MustNot, self._text(text, ("title",)))]
        )
        more, _ = self._page(rest, ("views", False), query.limit - len(titled), max(0, query.offset - in_title_count))
        return titled + more, total

    def _title_page(self, filter_query: Any, ascending: bool, limit: int, offset: int) -> tuple[list[Any], int]:
        """A-Z (or Z-A) by the whole title, then id: the page by the 8-byte prefix, then the tours of
        the prefixes at its two ends read whole and everything put in (title, id) order. Prefixes
        between the ends lie wholly inside the page."""
        hits, total = self._page(filter_query, ("title_prefix", ascending), limit, offset)
        if not hits:
            return hits, total
        prefixes = self._ids(hits, "title_prefix")
        first, last = prefixes[0], prefixes[-1]
        before = (None, first - 1) if ascending else (first + 1, None)
        if (ascending and first == 0) or (not ascending and first == (1 << 64) - 1):
            start = 0
        else:
            start = self._count(self._must(filter_query, self._unsigned_range("title_prefix", *before)))
        # DocAddress is not hashable: keyed by (segment, doc).
        candidates = {(address.segment_ord, address.doc): address for _, address in hits}
        for prefix in {first, last}:
            group = self._must(filter_query, tantivy.Query.term_query(self.schema, "title_prefix", prefix))
            for _, address in self._page(group, None, max(1, self._count(group)), 0)[0]:
                candidates[(address.segment_ord, address.doc)] = address
        addresses = list(candidates.values())
        rids = [value - RID_OFFSET for value in self.searcher.fast_field_values("rid_plus", addresses)]
        marks = ",".join("?" * len(rids))
        keys = dict(self.store.execute(f"SELECT rid, title_key FROM tours WHERE rid IN ({marks})", rids).fetchall())
        tour_ids = self.searcher.fast_field_values("id", addresses)
        ordered = sorted(
            zip(addresses, rids, tour_ids, strict=True),
            key=lambda row: (keys[row[1]].encode(), row[2]),
            reverse=not ascending,
        )
        return [(None, address) for address, _, _ in ordered[offset - start : offset - start + limit]], total

    def _must(self, *queries: Any) -> Any:
        return self._boolean([(tantivy.Occur.Must, query) for query in queries])

    def _unsigned_range(self, field: str, low: int | None, high: int | None) -> Any:
        return tantivy.Query.range_query(self.schema, field, tantivy.FieldType.Unsigned, low, high)

    def _random_page(self, filter_query: Any, query: FeedQuery) -> tuple[list[Any], int]:
        start = fraction(query.seed or "default")
        after = self._boolean(
            [(tantivy.Occur.Must, filter_query), (tantivy.Occur.Must, self._range("random_key", start, None))]
        )
        first, in_first = self._page(after, ("random_key", True), query.limit, query.offset)
        total = self._count(filter_query)
        if len(first) == query.limit:
            return first, total
        before = self._boolean(
            [(tantivy.Occur.Must, filter_query), (tantivy.Occur.MustNot, self._range("random_key", start, None))]
        )
        second, _ = self._page(before, ("random_key", True), query.limit - len(first), max(0, query.offset - in_first))
        return first + second, total

    def _near_me(self, tour_filter: TourFilter, query: FeedQuery) -> Page:
        """Nearest first by the best-first walk of the Morton quadtree that nearby.py runs on SQLite:
        a heap of tiles (keyed by the least distance a point inside can have) and tours; a tile of at
        most PROBE_ROWS matching tours is read whole, a fuller one split in four. tantivy has no
        distance sort of its own, and sorting every match in Python costs seconds at a million."""
        assert query.near is not None
        located = self.tour_query(tour_filter, located=True)
        total = self._count(located)
        needed = query.offset + query.limit
        visitor = haversine_params(*query.near)
        distance = haversine(*query.near)
        heap: list[tuple[float, int, int, int, int, int]] = [(0.0, 0, 0, 0, 0, 0)]
        addresses: dict[int, Any] = {}
        found: list[int] = []
        while heap and len(found) < needed:
            _, kind, negative_id, level, x, y = heapq.heappop(heap)
            if kind == 1:  # a tour nearer than every tile left
                found.append(-negative_id)
                continue
            key = interleave(x, y)
            tile = self._must(located, self._tiles(level, [key])) if level else located
            result = self.searcher.search(tile, limit=PROBE_ROWS + 1, count=True)
            if result.count == 0:
                continue
            if level < MAX_LEVEL and result.count > PROBE_ROWS:
                for bound, child_x, child_y in _child_floors(visitor, x, y, level):
                    heapq.heappush(heap, (bound, 0, 0, level + 1, child_x, child_y))
                continue
            hits = result.hits if result.count <= PROBE_ROWS else self._page(tile, None, result.count, 0)[0]
            for (_, address), tour, lat, lng in zip(
                hits, self._ids(hits), self._ids(hits, "lat"), self._ids(hits, "lng"), strict=True
            ):
                addresses[tour] = address
                heapq.heappush(heap, (distance(lat, lng), 1, -tour, 0, 0, 0))
        page = found[query.offset :]
        hits = [(None, addresses[tour]) for tour in page]
        return Page(ids=page, total=total, docs=self._cards(hits))  # type: ignore[arg-type]

    # ------------------------------------------------------------------ map

    def map_area(self, query: MapQuery) -> MapAnswer:
        """As indexer/embedded/pyramid.area_answer (see PostgresPeer.map_area)."""
        level = cluster_level(query.zoom)
        tour_filter = replace(query.filter, bounds=None)
        located = self.tour_query(tour_filter, located=True)
        pyramid = (pyramid_can_answer(tour_filter) and level in PYRAMID_LEVELS) or (
            tag_pyramid_can_answer(tour_filter) and level in TAG_PYRAMID_LEVELS
        )
        if pyramid:
            keys = cell_keys(query.bbox, level)
            view = located if len(keys) >= 4**level else self._must(located, self._tiles(level, keys))
            cells = self._grouped_cells(view, level)
            total = sum(cell[1] for cell in cells)
            if total > query.max_points:
                return self._clusters(cells, level, total)
        inside = self._boolean([(tantivy.Occur.Must, located), (tantivy.Occur.Must, self._box(query.bbox))])
        total = self._count(inside)
        if total <= query.max_points:
            hits, _ = self._page(inside, None, max(1, total), 0)
            return MapAnswer(points=self._features(hits) if total else [], clusters=[], total=total)
        return self._clusters(self._grouped_cells(inside, level), level, total)

    def _grouped_cells(self, query: Any, level: int) -> list[tuple[int, int, float, float, int]]:
        aggregation = {
            "cells": {
                "terms": {"field": f"k{level}", "size": AGGREGATION_BUCKETS},
                "aggs": {
                    "lat": {"avg": {"field": "lat"}},
                    "lng": {"avg": {"field": "lng"}},
                    "first": {"min": {"field": "rid_plus"}},
                },
            }
        }
        buckets = self.searcher.aggregate(query, aggregation)["cells"]["buckets"]
        return [
            (
                int(bucket["key"]),
                int(bucket["doc_count"]),
                bucket["lat"]["value"],
                bucket["lng"]["value"],
                int(bucket["first"]["value"]) - RID_OFFSET,
            )
            for bucket in buckets
        ]

    def _clusters(self, cells: list[tuple[int, int, float, float, int]], level: int, total: int) -> MapAnswer:
        singles = [cell[4] for cell in cells if cell[1] == 1]
        clusters = [
            Cluster(lat=lat, lng=lng, count=count, expansion_zoom=expansion_zoom(level), cell=f"{level}/{key}")
            for key, count, lat, lng, _ in cells
            if count > 1
        ]
        points = self._features_of_rids(singles) if singles else []
        return MapAnswer(points=points, clusters=clusters, total=total)

    # ------------------------------------------------------------------ typeahead

    def suggest(self, query: SuggestQuery) -> list[Suggestion]:
        text, kinds = query.text.strip(), query.kinds
        if text.startswith("#"):
            kinds, text = (SuggestKind.TAG,), text[1:]
        elif text.startswith("@"):
            kinds, text = (SuggestKind.CREATOR,), text[1:]
        if not fold(text):
            return []
        typed = " ".join(words(text))
        found: list[Suggestion] = []
        for kind in kinds:
            if kind is SuggestKind.TOUR:
                found += self._suggest_tours(text, query.limit, typed)
            else:
                found += self._suggest_items(kind, text, query, typed)
        found.sort(key=lambda item: item.score, reverse=True)
        return found[: query.limit]

    def _suggest_tours(self, text: str, limit: int, typed: str) -> list[Suggestion]:
        listed = tantivy.Query.term_query(self.schema, "listed", True)
        query = self._boolean([(tantivy.Occur.Must, listed), (tantivy.Occur.Must, self._text(text, ("title",)))])
        hits, _ = self._page(query, ("views", False), limit * 3, 0)
        ids, cards = self._ids(hits), self._cards(hits)
        views = self._ids(hits, "views")
        categories, users = self._ids(hits, "category_id"), self._ids(hits, "user_id")
        return [
            tour_suggestion(tour, json.dumps(card), category, user, view, typed=typed)
            for tour, card, category, user, view in zip(ids, cards, categories, users, views, strict=True)
        ]

    def _suggest_items(self, kind: SuggestKind, text: str, query: SuggestQuery, typed: str) -> list[Suggestion]:
        schema = self.item_schema
        clauses = [
            (tantivy.Occur.Must, tantivy.Query.term_query(schema, "kind", kind.value)),
            (tantivy.Occur.Must, self._text(text, ("text",), schema)),
        ]
        if kind is SuggestKind.TAG and (query.category_id is not None or query.media_type_id is not None):
            topics = [
                f"{topic_type}:{topic_id}"
                for topic_type, topic_id in (("category", query.category_id), ("media_type", query.media_type_id))
                if topic_id is not None
            ]
            clauses.append((tantivy.Occur.Must, tantivy.Query.term_set_query(schema, "topic", topics)))
        result = self.item_searcher.search(
            tantivy.Query.boolean_query(clauses),
            limit=query.limit * 3,
            count=False,
            order_by_field="weight",
            order=tantivy.Order.Desc,
        )
        sids = self.item_searcher.fast_field_values("sid", [address for _, address in result.hits])
        marks = ",".join("?" * len(sids)) or "NULL"
        rows = dict(
            (row[0], row[1:])
            for row in self.store.execute(
                f"SELECT sid, ref, text, weight, payload FROM suggest_items WHERE sid IN ({marks})", sids
            )
        )
        return [item_suggestion(kind, *rows[sid], typed=typed) for sid in sids]

    # ------------------------------------------------------------------ queries

    def tour_query(self, tour_filter: TourFilter, located: bool = False) -> Any:
        """A TourFilter as a boolean query of indexed terms and ranges."""
        schema, must = self.schema, []
        if not tour_filter.with_unlisted:
            must.append(tantivy.Query.term_query(schema, "listed", True))
        if located:
            must.append(tantivy.Query.term_query(schema, "located", True))
        for field, values in (
            ("category_id", tour_filter.categories),
            ("subcategory_id", tour_filter.subcategories),
            ("country", tour_filter.countries),
            ("vendor_id", tour_filter.vendors),
            ("media_type_id", tour_filter.media_types),
            ("tags", tour_filter.tags),
        ):
            if values:
                must.append(self._any_of(field, values))
        for field, chosen in (
            ("user_id", tour_filter.user_ids),
            ("id", tour_filter.tour_ids),
            ("media_type_id", tour_filter.only_media_types),
        ):
            if chosen is None:
                continue
            if not chosen:  # an empty choice matches nothing
                return tantivy.Query.empty_query()
            must.append(self._any_of(field, chosen))
        if (either := tour_filter.saved_or_followed) is not None:
            must.append(
                self._boolean(
                    [
                        (tantivy.Occur.Should, self._any_of("user_id", either.followed_user_ids)),
                        (tantivy.Occur.Should, self._any_of("id", either.saved_tour_ids)),
                    ]
                )
            )
        if tour_filter.text:
            must.append(self._text(tour_filter.text, ("title", "body")))
        if tour_filter.bounds is not None:
            must.append(self._box(tour_filter.bounds))
        if tour_filter.featured_only:
            must.append(tantivy.Query.term_query(schema, "featured", True))
        if tour_filter.created_from is not None or tour_filter.created_before is not None:
            must.append(
                tantivy.Query.range_query(
                    schema,
                    "created_at",
                    tantivy.FieldType.Float,
                    tour_filter.created_from,
                    tour_filter.created_before,
                    include_upper=tour_filter.created_before is None,
                )
            )
        if not must:
            return tantivy.Query.all_query()
        return self._boolean([(tantivy.Occur.Must, clause) for clause in must])

    def _any_of(self, field: str, values: Sequence[Any]) -> Any:
        if len(values) == 1:
            return tantivy.Query.term_query(self.schema, field, values[0])
        return tantivy.Query.term_set_query(self.schema, field, list(values))

    def _boolean(self, clauses: list[tuple[Any, Any]]) -> Any:
        return tantivy.Query.boolean_query(clauses)

    def _range(self, field: str, low: float | None, high: float | None) -> Any:
        return tantivy.Query.range_query(self.schema, field, tantivy.FieldType.Float, low, high)

    def _tiles(self, level: int, keys: Sequence[int]) -> Any:
        return self._any_of(f"k{level}", keys)

    def _box(self, bounds: BBox) -> Any:
        clauses = [(tantivy.Occur.Must, self._range("lat", bounds.south, bounds.north))]
        if bounds.crosses_antimeridian():
            either = [
                (tantivy.Occur.Should, self._range("lng", bounds.west, None)),
                (tantivy.Occur.Should, self._range("lng", None, bounds.east)),
            ]
            clauses.append((tantivy.Occur.Must, self._boolean(either)))
        else:
            clauses.append((tantivy.Occur.Must, self._range("lng", bounds.west, bounds.east)))
        tiles = _box_tiles(bounds)
        if tiles is not None:
            clauses.append((tantivy.Occur.Must, self._tiles(*tiles)))
        return self._boolean(clauses)

    def _text(self, text: str, fields: Sequence[str], schema: Any = None) -> Any:
        """Every word as a prefix in any of the fields (all words required), or the exact phrase
        within one field after a leading quote: match_expression's rules."""
        schema = schema or self.schema
        folded = fold(text).split()
        if not folded:
            return tantivy.Query.empty_query()
        if is_phrase(text):
            if len(folded) == 1:
                per_field = [tantivy.Query.term_query(schema, field, folded[0]) for field in fields]
            else:
                per_field = [tantivy.Query.phrase_query(schema, field, list[Any](folded)) for field in fields]
            return self._boolean([(tantivy.Occur.Should, query) for query in per_field])
        each_word = []
        for word in folded:
            prefixes = [tantivy.Query.regex_query(schema, field, f"{word}.*") for field in fields]
            each_word.append((tantivy.Occur.Must, self._boolean([(tantivy.Occur.Should, q) for q in prefixes])))
        return self._boolean(each_word)


def title_prefix(title_key: str) -> int:
    """The first 8 bytes of the title (UTF-8, as SQLite compares it) as a big-endian number."""
    return int.from_bytes(title_key.encode()[:8].ljust(8, b"\0"), "big")


def _box_tiles(bounds: BBox) -> tuple[int, list[int]] | None:
    """The tiles covering a box at the deepest level (14 down to 4) where they are at most
    BOX_TILES, as sql._cell_ranges_for_box chooses them; None for a box too large to help."""
    if bounds.crosses_antimeridian():
        return None
    for level in range(14, 3, -1):
        x0, y0 = mercator_xy(min(bounds.north, 85.0511), bounds.west, level)
        x1, y1 = mercator_xy(max(bounds.south, -85.0511), bounds.east, level)
        if (x1 - x0 + 1) * (y1 - y0 + 1) <= BOX_TILES:
            return level, [interleave(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]
    return None
