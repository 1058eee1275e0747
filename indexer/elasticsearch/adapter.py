"""The Elasticsearch 8 adapter of the SearchIndex port.

Every kind of document (tours, creators, ads, tags, places) lives in a versioned index behind an
alias (see `layout`). A fresh cluster gets empty `…-v<version>-initial` indices on first use; a
rebuild loads new `…-v<version>-<timestamp>` indices, moves all aliases in one atomic call and then
deletes the old indices, so readers never see a half-built index. Request bodies come from
`queries` and answers are parsed by `answers`, both pure and unit-tested.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain, islice
from typing import Any

from elasticsearch import ApiError, BadRequestError, Elasticsearch, NotFoundError, TransportError, helpers

from indexer.documents import (
    AdDocument,
    CreatorDocument,
    PlaceDocument,
    TagDocument,
    TourDocument,
    creator_document_from,
)
from indexer.elasticsearch import answers
from indexer.elasticsearch.layout import (
    BOOTSTRAP_STAMP,
    KINDS,
    IndexSpec,
    alias_name,
    index_specs,
    rebuild_stamp,
    version_of,
    versioned_name,
)
from indexer.elasticsearch.queries import (
    ads_body,
    creators_body,
    feed_body,
    has_words,
    map_clusters_body,
    map_points_body,
    popular_tags_body,
    similar_body,
    similar_count_body,
    suggest_body,
    suggest_plan,
    tours_by_ids_body,
    typed_words,
)
from indexer.elasticsearch.sources import (
    VECTOR_FIELD,
    ad_source,
    checked_vector,
    counter_params,
    creator_source,
    place_source,
    tag_source,
    tour_source,
)
from indexer.geo import cluster_level
from indexer.queries import (
    CreatorQuery,
    FeedQuery,
    MapAnswer,
    MapQuery,
    Page,
    SimilarQuery,
    Suggestion,
    SuggestKind,
    SuggestQuery,
    TagPage,
    TagQuery,
)

logger = logging.getLogger(__name__)

BULK_CHUNK = 500
BULK_RETRIES = 3  # on 429 (queue full) the bulk helpers back off and resend the rejected documents
CONFLICT_RETRIES = 3  # counters of a popular tour are updated by several workers at once
SCAN_BATCH = 2000
# Each API process serves up to 24 requests at once (settings.max_requests_in_flight), each holding a
# connection while it waits for Elasticsearch, plus the writes of tasks run in the process. The
# client's default is 10: the 11th concurrent request would wait for a free connection.
SPARE_CONNECTIONS = 8
DEFAULT_CONNECTIONS_PER_NODE = 24 + SPARE_CONNECTIONS
SUGGEST_INDEX = {
    SuggestKind.TOUR: "tours",
    SuggestKind.CREATOR: "creators",
    SuggestKind.TAG: "tags",
    SuggestKind.PLACE: "places",
}

# An upsert replaces the whole document but keeps its embedding: vectors are written separately
# (set_vectors) and a tour edit must not drop the tour out of "similar tours" until then.
KEEP_VECTOR_SCRIPT = (
    "def kept = ctx._source.vector; ctx._source.clear(); ctx._source.putAll(params.doc); "
    "if (kept != null) { ctx._source.vector = kept; }"
)
# Counters are absolute values; favorite (likes + saves) is a stored sort key, so it follows them.
COUNTERS_SCRIPT = (
    "for (def entry : params.counters.entrySet()) { ctx._source[entry.getKey()] = entry.getValue(); } "
    "ctx._source.favorite = ctx._source.likes + ctx._source.saves;"
)


class SearchIndexError(RuntimeError):
    """Elasticsearch answered, but not with what the adapter needs (a failed part of a request)."""


class ElasticsearchIndex:
    def __init__(
        self,
        url: str,
        *,
        prefix: str = "touratlas",
        client: Elasticsearch | None = None,
        refresh: bool | str = "wait_for",
        connections_per_node: int = DEFAULT_CONNECTIONS_PER_NODE,
    ) -> None:
        """`refresh` is what writes wait for: "wait_for" (default) returns once the change is visible to
        searches, without forcing a refresh; True forces one (tests); False returns at once (see
        `_bulk` for writes larger than one request). `connections_per_node` sizes the client's pool:
        at least the requests the process serves at once."""
        self.prefix = prefix
        self.client = (
            client
            if client is not None
            else Elasticsearch(
                url, request_timeout=30, retry_on_timeout=True, connections_per_node=connections_per_node
            )
        )
        self.refresh = refresh
        self._specs = index_specs()
        self._ready = False
        self._ready_lock = threading.Lock()

    def close(self) -> None:
        self.client.close()

    # ------------------------------------------------------------------ names and index lifecycle

    def alias(self, kind: str) -> str:
        return alias_name(self.prefix, kind)

    def _ensure_indices(self) -> None:
        """Give every alias an index on first use, so a write never auto-creates an unmapped index."""
        if self._ready:
            return
        with self._ready_lock:
            if self._ready:
                return
            for kind, spec in self._specs.items():
                alias = self.alias(kind)
                if self.client.indices.exists_alias(name=alias):
                    continue
                if self.client.indices.exists(index=alias):
                    raise SearchIndexError(
                        f"{alias} is an index, not an alias (written to before its mapping was installed): "
                        "delete it and reindex"
                    )
                self._create_index(versioned_name(self.prefix, spec, BOOTSTRAP_STAMP), spec, alias=alias)
            self._ready = True

    def _create_index(self, name: str, spec: IndexSpec, *, alias: str | None = None, loading: bool = False) -> None:
        settings = dict(spec.settings)
        if loading:
            settings["refresh_interval"] = "-1"  # a bulk load refreshes once at the end
        try:
            self.client.indices.create(
                index=name, settings=settings, mappings=spec.mappings, aliases={alias: {}} if alias else None
            )
        except BadRequestError as exc:
            # Another process bootstrapped the same fixed name first: make sure the alias is there too.
            if alias is None or exc.error != "resource_already_exists_exception":
                raise
            self.client.indices.put_alias(index=name, name=alias)

    def _indices_behind(self, alias: str) -> list[str]:
        try:
            return list(self.client.indices.get_alias(name=alias).body)
        except NotFoundError:
            return []

    def _delete_indices(self, names: Iterable[str]) -> None:
        for name in names:
            self.client.options(ignore_status=404).indices.delete(index=name)

    def drop_all(self) -> None:
        """Delete every index of this prefix (each kind, each version, leftovers of failed rebuilds)
        and with them its aliases; other prefixes' indices stay. The next use bootstraps afresh.
        Names are listed first: Elasticsearch 8 refuses wildcard deletes (action.destructive_requires_name)."""
        patterns = [f"{self.prefix}-{kind}-v*" for kind in KINDS]
        found = self.client.indices.get(index=patterns, allow_no_indices=True, expand_wildcards=["open", "closed"])
        own = [name for name in found.body if any(version_of(name, self.prefix, kind) is not None for kind in KINDS)]
        with self._ready_lock:
            self._delete_indices(own)
            self._ready = False

    # ------------------------------------------------------------------ health and maintenance

    def health(self) -> str:
        try:
            self._ensure_indices()
            status = self.client.cluster.health().body["status"]
            count = self.document_count()
            stale = self._stale_kinds()
        except (ApiError, TransportError, SearchIndexError) as exc:
            return f"elasticsearch unavailable: {exc}"
        if status == "red":
            return "elasticsearch cluster is red: some shards are unassigned"
        if stale:
            return f"mappings changed for {', '.join(stale)}: run a reindex"
        return f"ok (elasticsearch {status}, {count} tours)"

    def outdated(self) -> list[str]:
        self._ensure_indices()
        return self._stale_kinds()

    def _stale_kinds(self) -> list[str]:
        """Kinds whose live index was built from an older mapping file than the one shipped."""
        stale = []
        for kind, spec in self._specs.items():
            versions = [version_of(name, self.prefix, kind) for name in self._indices_behind(self.alias(kind))]
            if any(version is None or version < spec.version for version in versions):
                stale.append(kind)
        return stale

    def creator_document(self, creator_id: int) -> CreatorDocument | None:
        self._ensure_indices()
        try:
            found = self.client.get(index=self.alias("creators"), id=str(creator_id)).body
        except NotFoundError:
            return None
        return creator_document_from(found["_source"])

    def document_count(self) -> int:
        self._ensure_indices()
        return int(self.client.count(index=self.alias("tours")).body["count"])

    def tour_ids(self) -> set[int]:
        self._ensure_indices()
        hits = helpers.scan(
            self.client,
            index=self.alias("tours"),
            query={"query": {"match_all": {}}, "_source": False},
            size=SCAN_BATCH,
        )
        return {int(hit["_id"]) for hit in hits}

    def reset(self) -> None:
        """Drop every document, embeddings included: swap in fresh, empty indices."""
        self._replace_indices(dict.fromkeys(KINDS, ()), keep_vectors=False)

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
        """Zero-downtime rebuild; the embeddings of tours that stay are carried over.

        Writes that arrive during the load go to the old indices and are lost with them: replay the
        outbox from the rebuild's start if writes cannot be paused."""
        documents: dict[str, Iterable[tuple[str, dict[str, Any]]]] = {
            "tours": ((str(doc.id), tour_source(doc)) for doc in tours),
            "creators": ((str(doc.id), creator_source(doc)) for doc in creators),
            "ads": ((str(doc.id), ad_source(doc)) for doc in ads),
            "tags": ((str(doc.id), tag_source(doc)) for doc in tags),
            "places": ((doc.id, place_source(doc)) for doc in places),
        }
        return self._replace_indices(documents, keep_vectors=True)

    def _replace_indices(
        self, documents: Mapping[str, Iterable[tuple[str, dict[str, Any]]]], *, keep_vectors: bool
    ) -> dict[str, int]:
        """Load new versioned indices, then move every alias at once and delete the old indices."""
        self._ensure_indices()
        stamp = rebuild_stamp()
        fresh = {kind: versioned_name(self.prefix, spec, stamp) for kind, spec in self._specs.items()}
        try:
            for kind, name in fresh.items():
                self._create_index(name, self._specs[kind], loading=True)
            counts = {kind: self._load(fresh[kind], documents[kind]) for kind in KINDS}
            if keep_vectors:
                self._carry_vectors(into=fresh["tours"])
            for name in fresh.values():
                self.client.indices.put_settings(index=name, settings={"index": {"refresh_interval": None}})
                self.client.indices.refresh(index=name)
            replaced = self._move_aliases(fresh)
        except Exception:
            self._discard(fresh.values())
            raise
        self._discard(replaced)
        return counts

    def _discard(self, names: Iterable[str]) -> None:
        """Delete indices nobody reads; a failure only costs disk until the next rebuild, so it must
        not hide the error (or the success) of the rebuild itself."""
        names = list(names)
        try:
            self._delete_indices(names)
        except (ApiError, TransportError):
            logger.exception("could not delete the indices %s", names)

    def _load(self, index: str, documents: Iterable[tuple[str, dict[str, Any]]]) -> int:
        actions = (
            {"_op_type": "index", "_index": index, "_id": doc_id, "_source": source} for doc_id, source in documents
        )
        loaded = 0
        for ok, _item in helpers.streaming_bulk(
            self.client, actions, chunk_size=BULK_CHUNK, max_retries=BULK_RETRIES, raise_on_error=True
        ):
            loaded += int(ok)
        return loaded

    def _carry_vectors(self, *, into: str) -> None:
        """Embeddings are not part of the documents a rebuild gets: copy them from the live index
        (tours that disappeared meanwhile are skipped)."""
        hits = helpers.scan(
            self.client,
            index=self.alias("tours"),
            query={"query": {"exists": {"field": VECTOR_FIELD}}, "_source": [VECTOR_FIELD]},
            size=SCAN_BATCH,
        )
        updates = (
            {
                "_op_type": "update",
                "_index": into,
                "_id": hit["_id"],
                "doc": {VECTOR_FIELD: hit["_source"][VECTOR_FIELD]},
            }
            for hit in hits
        )
        helpers.bulk(self.client, updates, chunk_size=BULK_CHUNK, max_retries=BULK_RETRIES, ignore_status=404)

    def _move_aliases(self, fresh: Mapping[str, str]) -> list[str]:
        """One `_aliases` call moves every alias: searches switch to the new indices atomically."""
        replaced: list[str] = []
        actions: list[dict[str, Any]] = []
        for kind, name in fresh.items():
            alias = self.alias(kind)
            current = self._indices_behind(alias)
            replaced += current
            actions += [{"remove": {"index": old, "alias": alias}} for old in current]
            actions.append({"add": {"index": name, "alias": alias}})
        self.client.indices.update_aliases(actions=actions)
        return replaced

    # ------------------------------------------------------------------ writes

    def _bulk(self, index: str, actions: Iterable[dict[str, Any]], *, ignore_missing: bool = False) -> int:
        """Write to `index` (an alias). A write that fits one request (a tour saved after an edit, a
        like's counters) waits for `self.refresh`: read-your-writes for the user who made it. A bigger
        one (reindex-sized upserts, the daily score refresh, stored vectors) sends its chunks without
        waiting (`wait_for` on each would cost up to a refresh interval, 1 s, per 500 documents) and
        refreshes once at the end, so the call still returns with its writes visible."""
        self._ensure_indices()
        pending = iter(actions)
        first = list(islice(pending, BULK_CHUNK + 1))
        ignore_status = 404 if ignore_missing else ()
        if len(first) <= BULK_CHUNK:
            if not first:
                return 0
            done, _errors = helpers.bulk(
                self.client, first, max_retries=BULK_RETRIES, refresh=self.refresh, ignore_status=ignore_status
            )
            return done
        done, _errors = helpers.bulk(
            self.client,
            chain(first, pending),
            chunk_size=BULK_CHUNK,
            max_retries=BULK_RETRIES,
            ignore_status=ignore_status,
        )
        if self.refresh:
            self.client.indices.refresh(index=index)
        return done

    def _index_documents(self, kind: str, documents: Iterable[tuple[str, dict[str, Any]]]) -> int:
        index = self.alias(kind)
        return self._bulk(
            index,
            ({"_op_type": "index", "_index": index, "_id": doc_id, "_source": source} for doc_id, source in documents),
        )

    def _delete_documents(self, kind: str, ids: Sequence[int | str]) -> None:
        """Deleting what is not there is not an error: deletes are replayed from the outbox."""
        index = self.alias(kind)
        self._bulk(
            index, ({"_op_type": "delete", "_index": index, "_id": str(doc_id)} for doc_id in ids), ignore_missing=True
        )

    def upsert_tours(self, docs: Iterable[TourDocument]) -> int:
        index = self.alias("tours")

        def actions() -> Iterator[dict[str, Any]]:
            for doc in docs:
                source = tour_source(doc)
                yield {
                    "_op_type": "update",
                    "_index": index,
                    "_id": str(doc.id),
                    "retry_on_conflict": CONFLICT_RETRIES,
                    "script": {"source": KEEP_VECTOR_SCRIPT, "lang": "painless", "params": {"doc": source}},
                    "upsert": source,
                }

        return self._bulk(index, actions())

    def delete_tours(self, ids: Sequence[int]) -> None:
        self._delete_documents("tours", ids)

    def upsert_creators(self, docs: Iterable[CreatorDocument]) -> int:
        return self._index_documents("creators", ((str(doc.id), creator_source(doc)) for doc in docs))

    def delete_creators(self, ids: Sequence[int]) -> None:
        self._delete_documents("creators", ids)

    def upsert_ads(self, docs: Iterable[AdDocument]) -> int:
        return self._index_documents("ads", ((str(doc.id), ad_source(doc)) for doc in docs))

    def delete_ads(self, ids: Sequence[int]) -> None:
        self._delete_documents("ads", ids)

    def upsert_tags(self, docs: Iterable[TagDocument]) -> int:
        return self._index_documents("tags", ((str(doc.id), tag_source(doc)) for doc in docs))

    def delete_tags(self, ids: Sequence[int]) -> None:
        self._delete_documents("tags", ids)

    def upsert_places(self, docs: Iterable[PlaceDocument]) -> int:
        return self._index_documents("places", ((doc.id, place_source(doc)) for doc in docs))

    def update_counters(self, counters: dict[int, dict[str, float]]) -> None:
        """Absolute counter values per tour. Tours not in the index (drafts, deleted) are skipped."""
        checked = {tour_id: counter_params(values) for tour_id, values in counters.items() if values}
        index = self.alias("tours")
        self._bulk(
            index,
            (
                {
                    "_op_type": "update",
                    "_index": index,
                    "_id": str(tour_id),
                    "retry_on_conflict": CONFLICT_RETRIES,
                    "script": {"source": COUNTERS_SCRIPT, "lang": "painless", "params": {"counters": values}},
                }
                for tour_id, values in checked.items()
            ),
            ignore_missing=True,
        )

    def set_vectors(self, vectors: dict[int, list[float]]) -> None:
        """A vector lives in its tour's document: one for a tour not (yet) indexed is skipped, and the
        next embedding run of that tour stores it."""
        checked = {tour_id: checked_vector(tour_id, vector) for tour_id, vector in vectors.items()}
        index = self.alias("tours")
        self._bulk(
            index,
            (
                {
                    "_op_type": "update",
                    "_index": index,
                    "_id": str(tour_id),
                    "retry_on_conflict": CONFLICT_RETRIES,
                    "doc": {VECTOR_FIELD: vector},
                }
                for tour_id, vector in checked.items()
            ),
            ignore_missing=True,
        )

    # ------------------------------------------------------------------ reads

    def _search(self, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        self._ensure_indices()
        response: dict[str, Any] = self.client.search(index=self.alias(kind), body=body).body
        return response

    def feed(self, query: FeedQuery) -> Page:
        return answers.tour_page(self._search("tours", feed_body(query)))

    def creators(self, query: CreatorQuery) -> Page:
        return answers.creator_page(self._search("creators", creators_body(query)))

    def ads(self, limit: int, seed: str = "") -> Page:
        return answers.ad_page(self._search("ads", ads_body(limit, seed)))

    def map_area(self, query: MapQuery) -> MapAnswer:
        """Points when the box holds at most `max_points` tours, otherwise geotile clusters (one-tour
        cells still come back as points)."""
        cells = self._search("tours", map_clusters_body(query))
        total = answers.total_of(cells)
        if total <= query.max_points:
            points = answers.map_points(self._search("tours", map_points_body(query, total))) if total else []
            return MapAnswer(points=points, clusters=[], total=total)
        clusters, single_ids = answers.map_cells(cells, cluster_level(query.zoom))
        points = answers.map_points(self._search("tours", tours_by_ids_body(single_ids))) if single_ids else []
        return MapAnswer(points=points, clusters=clusters, total=total)

    def suggest(self, query: SuggestQuery) -> list[Suggestion]:
        text, kinds = suggest_plan(query)
        if not kinds or query.limit <= 0 or not has_words(text):
            return []
        self._ensure_indices()
        searches: list[dict[str, Any]] = []
        for kind in kinds:
            searches += [{"index": self.alias(SUGGEST_INDEX[kind])}, suggest_body(kind, text, query)]
        responses = self.client.msearch(searches=searches).body["responses"]
        for kind, response in zip(kinds, responses, strict=True):
            if "error" in response:
                raise SearchIndexError(f"suggest {kind.value}: {response['error']}")
        return answers.ranked_suggestions(list(zip(kinds, responses, strict=True)), typed_words(text), query.limit)

    def popular_tags(self, query: TagQuery) -> TagPage:
        return answers.tag_page(self._search("tags", popular_tags_body(query)))

    def similar(self, query: SimilarQuery) -> Page:
        """The neighbours and the count of candidates (similar().total) in one round trip."""
        if query.limit <= 0:
            return Page(ids=[], total=0)
        self._ensure_indices()
        tours = {"index": self.alias("tours")}
        searches = [tours, similar_body(query), tours, similar_count_body(query)]
        neighbours, candidates = self.client.msearch(searches=searches).body["responses"]
        for part, response in (("neighbours", neighbours), ("candidate count", candidates)):
            if "error" in response:
                raise SearchIndexError(f"similar tours, {part}: {response['error']}")
        return answers.tour_page(neighbours, total=answers.total_of(candidates))
