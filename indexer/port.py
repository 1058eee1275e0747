"""The SearchIndex port: everything that lists or ranks is answered through this protocol.

Adapters: `indexer.embedded` (local files, the default) and `indexer.elasticsearch`. The contract
suite in tests/index runs the same cases on each available adapter (Elasticsearch whenever
ELASTICSEARCH_URL answers); an adapter's known gaps are expected failures there, not skips.

Promises both adapters keep:
- Pages: no page reaches past `queries.MAX_RESULT_WINDOW` (offset + limit); a page across it is cut
  there, one beyond it is empty, and `Page.total` is still the true count.
- Totals: `Page.total` of feed() and creators() is exact, except text searches, which count up to
  `queries.TEXT_TOTAL_CAP` (exact below, that number above). ads() counts the ads it returns.
- Writes are visible to the next query when the call returns.
- Unlisted tours (`TourDocument.unlisted`) are answered only to a filter with `with_unlisted` (their
  owner's pages): never by a feed, map or similar() query without it, nor by suggest().
- Text: every typed word is a prefix of a word of the title or the body; a leading quote asks for
  the phrase. What a "word" is belongs to each adapter's analysis and may differ: `john_smith` is one
  word on Elasticsearch (standard tokenizer) and two on the embedded index (unicode61), so "smith"
  finds it on the embedded index only (a known-gap case in the contract suite).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from indexer.documents import AdDocument, CreatorDocument, PlaceDocument, TagDocument, TourDocument
from indexer.queries import (
    CreatorQuery,
    FeedQuery,
    MapAnswer,
    MapQuery,
    Page,
    SimilarQuery,
    Suggestion,
    SuggestQuery,
    TagPage,
    TagQuery,
)


class SearchIndex(Protocol):
    def health(self) -> str:
        """'ok ...' when the index answers, otherwise a short reason."""
        ...

    def reset(self) -> None:
        """Drop every document."""
        ...

    def rebuild(
        self,
        *,
        tours: Iterable[TourDocument],
        creators: Iterable[CreatorDocument],
        ads: Iterable[AdDocument],
        tags: Iterable[TagDocument],
        places: Iterable[PlaceDocument],
        progress: Callable[[str], None] | None = None,
    ) -> dict[str, int]:
        """Zero-downtime full rebuild: build fresh storage (new files / new versioned indices) from
        the documents, then swap it in atomically. Tours arrive in views-descending order. Returns
        how many documents of each kind were indexed. `progress`, when given, may hear how long
        each phase of the rebuild took."""
        ...

    def document_count(self) -> int:
        """How many tour documents the index holds."""
        ...

    def upsert_tours(self, docs: Iterable[TourDocument]) -> int: ...
    def delete_tours(self, ids: Sequence[int]) -> None: ...
    def upsert_creators(self, docs: Iterable[CreatorDocument]) -> int: ...
    def delete_creators(self, ids: Sequence[int]) -> None: ...
    def upsert_ads(self, docs: Iterable[AdDocument]) -> int: ...
    def delete_ads(self, ids: Sequence[int]) -> None: ...
    def upsert_tags(self, docs: Iterable[TagDocument]) -> int: ...
    def delete_tags(self, ids: Sequence[int]) -> None: ...
    def upsert_places(self, docs: Iterable[PlaceDocument]) -> int: ...
    def update_counters(self, counters: dict[int, dict[str, float]]) -> None:
        """Fold counter changes (views, likes, saves, shared, trending) into tour documents."""
        ...

    def set_vectors(self, vectors: dict[int, list[float]]) -> None:
        """Store tour embeddings (384 floats) for similar tours and For You. The index keeps a copy
        to rank by; the application's database holds the vectors themselves, and the query vectors
        of For You (the taste vector) and similar tours are read from there, so the port has no
        "vector of a tour" call and both adapters answer `similar` from the same query vector."""
        ...

    def feed(self, query: FeedQuery) -> Page: ...
    def creators(self, query: CreatorQuery) -> Page: ...
    def ads(self, limit: int, seed: str = "") -> Page: ...
    def map_area(self, query: MapQuery) -> MapAnswer: ...
    def suggest(self, query: SuggestQuery) -> list[Suggestion]: ...
    def similar(self, query: SimilarQuery) -> Page:
        """The `limit` tours nearest to `query.vector` (cosine), nearest first, among tours that pass
        the filter and are not excluded; `limit` is cut at `queries.MAX_SIMILAR_RESULTS`.

        `total` is the number of candidates considered: the tours that pass the filter, are not
        excluded and have an embedding, counted up to MAX_SIMILAR_RESULTS (For You's `total_items`,
        as far as anyone can page). Exact on Elasticsearch and on the embedded index's exact search;
        an estimate on the embedded index's HNSW graph (large catalogues)."""
        ...

    def tour_ids(self) -> set[int]:
        """Every indexed tour id (parity checks and reindex)."""
        ...

    def creator_document(self, creator_id: int) -> CreatorDocument | None:
        """One creator's stored document as the index holds it (its card and Full Profile fields), or
        None when the index does not list it (parity checks and tools)."""
        ...

    def popular_tags(self, query: TagQuery) -> TagPage:
        """Tags by how many listed tours carry them (their documents' `vt_count`), most first; tags no
        listed tour carries are left out. Pages past MAX_RESULT_WINDOW are empty, as for feed()."""
        ...

    def outdated(self) -> list[str]:
        """Kinds of documents stored in an older layout than this code writes (an older mapping file
        on Elasticsearch, an older file layout on the embedded index); a reindex brings them up."""
        ...
