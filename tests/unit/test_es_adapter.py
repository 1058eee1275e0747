"""The Elasticsearch adapter against a small local fake server speaking Elasticsearch's wire format.

The fake keeps indices, aliases and documents, applies bulk NDJSON (index, update with `doc`, with
`upsert` or with the adapter's two painless scripts, delete), alias actions, scroll and count, and
answers searches either from a queued, real-shaped response (feed, map, suggest, similar: their
scoring is Elasticsearch's job, what is tested here is the request sent and the answer parsed) or,
for the adapter's own scans, by evaluating the few clauses they use.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from fnmatch import fnmatch
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from elasticsearch import Elasticsearch
from elasticsearch.helpers import BulkIndexError

from indexer.cards import ad_card, creator_card, map_point, tour_card
from indexer.documents import AdDocument, CreatorDocument, PlaceDocument, TagDocument, TourDocument
from indexer.elasticsearch import queries as q
from indexer.elasticsearch.adapter import COUNTERS_SCRIPT, KEEP_VECTOR_SCRIPT, ElasticsearchIndex, SearchIndexError
from indexer.elasticsearch.layout import index_specs
from indexer.elasticsearch.sources import (
    ad_source,
    creator_source,
    place_source,
    tag_source,
    tour_source,
)
from indexer.queries import (
    BBox,
    CreatorQuery,
    FeedQuery,
    MapQuery,
    SimilarQuery,
    Sort,
    SuggestKind,
    SuggestQuery,
    TourFilter,
)
from tests.fakes.server import http_server, serve_in_background, stop

KINDS = ("tours", "creators", "ads", "tags", "places")
ALIASES = {kind: f"touratlas-{kind}" for kind in KINDS}
VERSIONS = {kind: spec.version for kind, spec in index_specs().items()}  # the newest mapping file of each


def initial(kind: str) -> str:
    """The index a fresh cluster starts each kind with."""
    return f"touratlas-{kind}-v{VERSIONS[kind]}-initial"


# --------------------------------------------------------------------------- the fake server


@dataclass
class Recorded:
    method: str
    path: str
    params: dict[str, str]
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def ndjson(self) -> list[Any]:
        return [json.loads(line) for line in self.body.decode().splitlines() if line.strip()]


@dataclass
class FakeIndex:
    settings: dict[str, Any]
    mappings: dict[str, Any]
    aliases: set[str] = field(default_factory=set)
    docs: dict[str, dict[str, Any]] = field(default_factory=dict)
    seq_no: int = 0


def error(status: int, kind: str, reason: str) -> tuple[int, dict[str, Any]]:
    return status, {
        "error": {"root_cause": [{"type": kind, "reason": reason}], "type": kind, "reason": reason},
        "status": status,
    }


class FakeElasticsearch:
    def __init__(self) -> None:
        self.indices: dict[str, FakeIndex] = {}
        self.requests: list[Recorded] = []
        self.queued: list[tuple[str, Any]] = []  # (path suffix, response) answered first-in first-out
        self.failing_ids: set[str] = set()  # bulk items on these ids fail like a mapping error
        self.lock = threading.Lock()

    # -------------------------------------------------------------- helpers for tests

    def queue(self, suffix: str, response: Any) -> None:
        self.queued.append((suffix, response))

    def calls(self, method: str | None = None, contains: str = "") -> list[Recorded]:
        return [r for r in self.requests if (method is None or r.method == method) and contains in r.path]

    def resolve(self, name: str) -> list[str]:
        if name in self.indices:
            return [name]
        return sorted(index for index, data in self.indices.items() if name in data.aliases)

    def alias_targets(self) -> dict[str, list[str]]:
        return {alias: self.resolve(alias) for alias in ALIASES.values()}

    def docs(self, alias: str) -> dict[str, dict[str, Any]]:
        (index,) = self.resolve(alias)
        return self.indices[index].docs

    # -------------------------------------------------------------- dispatch

    def handle(self, request: Recorded) -> tuple[int, Any]:
        with self.lock:
            self.requests.append(request)
            parts = [part for part in request.path.split("/") if part]
            for position, (suffix, response) in enumerate(self.queued):
                if request.path.endswith(suffix):
                    del self.queued[position]
                    return 200, response
            return self.route(request, parts)

    def route(self, request: Recorded, parts: list[str]) -> tuple[int, Any]:
        method = request.method
        if not parts:
            return 200, {"name": "fake", "version": {"number": "8.15.3"}, "tagline": "You Know, for Search"}
        if parts == ["_cluster", "health"]:
            return 200, {"cluster_name": "fake", "status": "green", "number_of_nodes": 1}
        if parts[0] == "_alias":
            return self.get_alias(method, parts[1])
        if parts == ["_aliases"]:
            return self.update_aliases(request.json()["actions"])
        if parts[-1] == "_bulk":
            return self.bulk(request)
        if parts[-1] == "_msearch":
            raise AssertionError("msearch is only answered from queued responses")
        if parts[:2] == ["_search", "scroll"]:
            return (200, {"succeeded": True, "num_freed": 1}) if method == "DELETE" else self.empty_scroll()
        if parts[-1] == "_search":
            return self.search(parts[0], request)
        if parts[-1] == "_count":
            return 200, {"count": sum(len(self.indices[i].docs) for i in self.resolve(parts[0])), "_shards": {}}
        if parts[-1] == "_refresh":
            return 200, {"_shards": {"total": 1, "successful": 1, "failed": 0}}
        if len(parts) == 3 and parts[1] == "_doc" and method == "GET":
            return self.get_document(parts[0], parts[2])
        if parts[-1] == "_settings":
            self.indices[parts[0]].settings.update(request.json()["index"])
            return 200, {"acknowledged": True}
        if len(parts) == 3 and parts[1] == "_alias":
            self.indices[parts[0]].aliases.add(parts[2])
            return 200, {"acknowledged": True}
        return self.index_api(method, parts[0], request)

    # -------------------------------------------------------------- index and alias APIs

    def index_api(self, method: str, name: str, request: Recorded) -> tuple[int, Any]:
        if method == "HEAD":
            return (200, None) if self.resolve(name) else (404, None)
        if method == "PUT":
            if name in self.indices:
                return error(400, "resource_already_exists_exception", f"index [{name}] already exists")
            body = request.json()
            self.indices[name] = FakeIndex(body["settings"], body["mappings"], set(body.get("aliases") or {}))
            return 200, {"acknowledged": True, "shards_acknowledged": True, "index": name}
        if method == "GET":  # get index: comma-separated names or wildcard patterns
            patterns = name.split(",")
            return 200, {
                index: {"aliases": {alias: {} for alias in data.aliases}, "settings": {}, "mappings": {}}
                for index, data in self.indices.items()
                if any(fnmatch(index, pattern) for pattern in patterns)
            }
        if method == "DELETE":
            if name not in self.indices:
                return error(404, "index_not_found_exception", f"no such index [{name}]")
            del self.indices[name]
            return 200, {"acknowledged": True}
        raise AssertionError(f"unexpected {method} /{name}")

    def get_document(self, name: str, doc_id: str) -> tuple[int, Any]:
        targets = self.resolve(name)
        if len(targets) != 1:
            return error(404, "index_not_found_exception", f"no such index [{name}]")
        source = self.indices[targets[0]].docs.get(doc_id)
        if source is None:
            return 404, {"_index": targets[0], "_id": doc_id, "found": False}
        return 200, {"_index": targets[0], "_id": doc_id, "_version": 1, "found": True, "_source": source}

    def get_alias(self, method: str, alias: str) -> tuple[int, Any]:
        targets = [index for index, data in self.indices.items() if alias in data.aliases]
        if method == "HEAD":
            return (200, None) if targets else (404, None)
        if not targets:
            return 404, {"error": f"alias [{alias}] missing", "status": 404}
        return 200, {index: {"aliases": {alias: {}}} for index in targets}

    def update_aliases(self, actions: list[dict[str, Any]]) -> tuple[int, Any]:
        for action in actions:
            ((verb, spec),) = action.items()
            if spec["index"] not in self.indices:
                return error(404, "index_not_found_exception", spec["index"])
            if verb == "add":
                self.indices[spec["index"]].aliases.add(spec["alias"])
            else:
                self.indices[spec["index"]].aliases.discard(spec["alias"])
        return 200, {"acknowledged": True}

    # -------------------------------------------------------------- documents

    def bulk(self, request: Recorded) -> tuple[int, Any]:
        lines = request.ndjson()
        items = []
        position = 0
        while position < len(lines):
            ((op, meta),) = lines[position].items()
            body = None if op == "delete" else lines[position + 1]
            position += 1 if op == "delete" else 2
            items.append({op: self.bulk_item(op, meta, body)})
        errors = any(not 200 <= item[next(iter(item))]["status"] < 300 for item in items)
        return 200, {"took": 1, "errors": errors, "items": items}

    def bulk_item(self, op: str, meta: dict[str, Any], body: Any) -> dict[str, Any]:
        targets = self.resolve(meta["_index"])
        result: dict[str, Any] = {"_index": targets[0] if targets else meta["_index"], "_id": meta["_id"]}
        if len(targets) != 1:
            return {**result, "status": 404, "error": {"type": "index_not_found_exception", "reason": "no index"}}
        index = self.indices[targets[0]]
        if meta["_id"] in self.failing_ids:
            return {**result, "status": 400, "error": {"type": "document_parsing_exception", "reason": "bad field"}}
        existing = index.docs.get(meta["_id"])
        if op == "delete":
            if existing is None:
                return {**result, "status": 404, "result": "not_found"}
            del index.docs[meta["_id"]]
            return {**result, "status": 200, "result": "deleted"}
        if op == "update":
            if existing is None:
                if "upsert" not in body:
                    return {
                        **result,
                        "status": 404,
                        "error": {"type": "document_missing_exception", "reason": "missing"},
                    }
                index.docs[meta["_id"]] = dict(body["upsert"])
                return {**result, "status": 201, "result": "created"}
            index.docs[meta["_id"]] = self.updated(existing, body)
            return {**result, "status": 200, "result": "updated"}
        index.docs[meta["_id"]] = dict(body)
        index.seq_no += 1
        return {**result, "status": 201 if existing is None else 200, "result": "created"}

    def updated(self, existing: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        if "doc" in body:
            return {**existing, **body["doc"]}
        script = body["script"]
        if script["source"] == KEEP_VECTOR_SCRIPT:
            kept = existing.get("vector")
            return {**script["params"]["doc"], **({"vector": kept} if kept is not None else {})}
        if script["source"] == COUNTERS_SCRIPT:
            changed = {**existing, **script["params"]["counters"]}
            changed["favorite"] = changed["likes"] + changed["saves"]
            return changed
        raise AssertionError(f"the fake does not run this script: {script['source']}")

    # -------------------------------------------------------------- search

    def search(self, name: str, request: Recorded) -> tuple[int, Any]:
        body = request.json()
        hits = []
        for index in self.resolve(name):
            for doc_id, source in sorted(self.indices[index].docs.items(), key=lambda item: -int_or_zero(item[0])):
                if matches(body.get("query", {"match_all": {}}), source):
                    hits.append({"_index": index, "_id": doc_id, "_score": None, **shown(source, body.get("_source"))})
        response = search_response(hits, total=len(hits))
        if "scroll" in request.params:
            response["_scroll_id"] = "scroll-1"
        return 200, response

    def empty_scroll(self) -> tuple[int, Any]:
        response = search_response([], total=0)
        response["_scroll_id"] = "scroll-1"
        return 200, response


def int_or_zero(value: str) -> int:
    return int(value) if value.isdigit() else 0


def matches(query: dict[str, Any], source: dict[str, Any]) -> bool:
    ((kind, spec),) = query.items()
    if kind == "match_all":
        return True
    if kind == "exists":
        return source.get(spec["field"]) is not None
    raise AssertionError(f"the fake evaluates only the adapter's scans, not {kind}")


def shown(source: dict[str, Any], wanted: Any) -> dict[str, Any]:
    if wanted is False:
        return {}
    if isinstance(wanted, list):
        return {"_source": {key: source[key] for key in wanted if key in source}}
    return {"_source": source}


def search_response(
    hits: list[dict[str, Any]], *, total: int, aggregations: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The shape Elasticsearch 8 answers a _search with."""
    response: dict[str, Any] = {
        "took": 3,
        "timed_out": False,
        "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
        "hits": {"total": {"value": total, "relation": "eq"}, "max_score": None, "hits": hits},
    }
    if aggregations is not None:
        response["aggregations"] = aggregations
    return response


def hit(index: str, doc_id: str, source: dict[str, Any], sort: list[Any] | None = None) -> dict[str, Any]:
    return {"_index": index, "_id": doc_id, "_score": None, "_source": source, "sort": sort or [doc_id]}


class Handler(BaseHTTPRequestHandler):
    fake: FakeElasticsearch

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: pytest shows the recorded requests when a test fails."""

    def answer(self) -> None:
        split = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        request = Recorded(
            method=self.command,
            path=split.path,
            params={key: values[0] for key, values in parse_qs(split.query).items()},
            headers={key.lower(): value for key, value in self.headers.items()},
            body=self.rfile.read(length) if length else b"",
        )
        try:
            status, payload = self.fake.handle(request)
        except AssertionError as exc:
            status, payload = error(500, "fake_assertion", str(exc))
        data = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("X-Elastic-Product", "Elasticsearch")
        self.send_header("Content-Type", "application/vnd.elasticsearch+json;compatible-with=8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = answer  # noqa: N815 - http.server's method names


@pytest.fixture
def fake() -> Iterator[tuple[FakeElasticsearch, str]]:
    state = FakeElasticsearch()
    handler = type("BoundHandler", (Handler,), {"fake": state})
    server = http_server()
    server.RequestHandlerClass = handler
    serve_in_background(server, "fake-elasticsearch")
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        stop(server)


@pytest.fixture
def es(fake: tuple[FakeElasticsearch, str]) -> Iterator[ElasticsearchIndex]:
    index = ElasticsearchIndex(fake[1])
    yield index
    index.close()


@pytest.fixture
def server(fake: tuple[FakeElasticsearch, str]) -> FakeElasticsearch:
    return fake[0]


# --------------------------------------------------------------------------- documents


def tour(tour_id: int, **changes: Any) -> TourDocument:
    values: dict[str, Any] = {
        "id": tour_id,
        "guid": f"g-{tour_id}",
        "user_id": 3,
        "creator_id": 11,
        "title": f"Tour {tour_id}",
        "description": "",
        "category_id": 2,
        "subcategory_id": None,
        "media_type_id": 1,
        "vendor_id": 4,
        "country": "FR",
        "city": "Paris",
        "address": None,
        "address_id": None,
        "lat": 48.85 + tour_id / 1000,
        "lng": 2.35,
        "tag_ids": (5,),
        "tag_names": ("night",),
        "created_at": 1_700_000_000.0 + tour_id,
        "views": 10 * tour_id,
        "likes": tour_id,
        "saves": 1,
        "shared": 0,
        "trending": 0.5,
        "popular": 0.25,
        "is_featured": False,
        "featured_order": None,
        "link": f"https://example.test/{tour_id}",
        "preview_picture": None,
        "third_party_creator": None,
        "creator_website": None,
        "creator_name": "Studio",
        "platform_username": "studio1",
        "logo": None,
        "img_settings": {},
    }
    values.update(changes)
    return TourDocument(**values)


def creator(creator_id: int) -> CreatorDocument:
    return CreatorDocument(
        id=creator_id,
        user_id=3,
        creator_name="Studio North",
        platform_username="north",
        description="",
        logo="logo.png",
        img_settings={"bgColor": "black"},
        followers=12,
        vt_count=4,
        views=99,
        likes=7,
        locations=("Paris", "Lyon"),
        countries=("FR",),
        category_ids=(2,),
        created_at=1.0,
        trusted=True,
        services=("Drone", "Floor plans"),
        website="https://north.test",
        instagram="https://instagram.com/north",
        linkedin="https://linkedin.com/company/north",
        default_view="map",
        joined_fb_group=True,
    )


def ad(ad_id: int) -> AdDocument:
    return AdDocument(
        id=ad_id,
        guid=f"ad-{ad_id}",
        user_id=3,
        title="Sale",
        preview_picture=None,
        link="https://a.test",
        created_at=1.0,
    )


def tag(tag_id: int) -> TagDocument:
    return TagDocument(id=tag_id, name=f"tag{tag_id}", topic_type="category", topic_id=2, vt_count=tag_id)


def place(place_id: str) -> PlaceDocument:
    return PlaceDocument(
        id=place_id,
        name="Paris",
        kind="place",
        country="FR",
        lat=48.85,
        lng=2.35,
        bbox=(2.2, 48.8, 2.5, 48.9),
        population=2,
    )


# --------------------------------------------------------------------------- index lifecycle


def test_first_write_creates_versioned_indices_behind_aliases_then_bulk_upserts(
    es: ElasticsearchIndex, server: FakeElasticsearch
) -> None:
    assert es.upsert_tours([tour(1), tour(2)]) == 2

    created = server.calls("PUT")
    for kind in KINDS:
        put = next(r for r in created if r.path == f"/{initial(kind)}")
        body = put.json()
        assert body["aliases"] == {f"touratlas-{kind}": {}}
        assert body["mappings"]["dynamic"] == "strict"
    assert server.alias_targets() == {alias: [initial(kind)] for kind, alias in ALIASES.items()}

    (bulk,) = server.calls(contains="_bulk")
    assert bulk.headers["content-type"] == "application/vnd.elasticsearch+x-ndjson; compatible-with=8"
    assert bulk.params == {"refresh": "wait_for"}
    header, action = bulk.ndjson()[:2]
    assert header == {"update": {"_index": "touratlas-tours", "_id": "1", "retry_on_conflict": 3}}
    assert action["upsert"] == json.loads(json.dumps(tour_source(tour(1))))
    assert action["script"]["params"]["doc"] == action["upsert"]
    assert server.docs("touratlas-tours")["2"]["title"] == "Tour 2"

    # The indices are checked once per process, not before every write.
    es.upsert_tours([tour(3)])
    assert len(server.calls("HEAD")) == 2 * len(KINDS)


def test_an_upsert_keeps_the_embedding(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    es.upsert_tours([tour(1)])
    es.set_vectors({1: [0.5] * 384})
    es.upsert_tours([tour(1, title="Renamed")])
    stored = server.docs("touratlas-tours")["1"]
    assert stored["title"] == "Renamed" and stored["vector"] == [0.5] * 384


def test_rebuild_loads_new_indices_and_swaps_every_alias_in_one_call(
    es: ElasticsearchIndex, server: FakeElasticsearch
) -> None:
    es.upsert_tours([tour(1), tour(2)])
    es.set_vectors({1: [0.25] * 384, 2: [0.75] * 384})
    server.requests.clear()

    counts = es.rebuild(
        tours=[tour(1), tour(3)], creators=[creator(1)], ads=[ad(1), ad(2)], tags=[tag(5)], places=[place("p1")]
    )

    assert counts == {"tours": 2, "creators": 1, "ads": 2, "tags": 1, "places": 1}
    fresh = {
        kind: next(n for n in server.indices if n.startswith(f"touratlas-{kind}-v{VERSIONS[kind]}-2")) for kind in KINDS
    }
    for name in fresh.values():
        put = next(r for r in server.calls("PUT") if r.path == f"/{name}")
        assert put.json()["settings"]["refresh_interval"] == "-1"
        assert "aliases" not in put.json()
        assert server.indices[name].settings["refresh_interval"] is None  # back to the default after the load
    loaded = [line for r in server.calls(contains="_bulk") for line in r.ndjson()]
    assert {"index": {"_index": fresh["places"], "_id": "p1"}} in loaded
    # The embedding of tour 1 is carried over; tour 2 is gone, so is its embedding.
    tours = server.indices[fresh["tours"]].docs
    assert set(tours) == {"1", "3"}
    assert tours["1"]["vector"] == [0.25] * 384 and "vector" not in tours["3"]

    (swap,) = server.calls("POST", "/_aliases")
    actions = swap.json()["actions"]
    for kind in KINDS:
        alias = f"touratlas-{kind}"
        assert {"remove": {"index": initial(kind), "alias": alias}} in actions
        assert {"add": {"index": fresh[kind], "alias": alias}} in actions
    assert server.alias_targets() == {f"touratlas-{kind}": [fresh[kind]] for kind in KINDS}
    deleted = {r.path.strip("/") for r in server.calls("DELETE") if "scroll" not in r.path}
    assert deleted == {initial(kind) for kind in KINDS}
    swap_at = server.requests.index(swap)
    assert all(server.requests.index(r) > swap_at for r in server.calls("DELETE") if "scroll" not in r.path)


def test_a_failed_rebuild_leaves_the_live_indices_alone(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    es.upsert_tours([tour(1)])
    server.failing_ids = {"9"}
    with pytest.raises(BulkIndexError):
        es.rebuild(tours=[tour(2), tour(9)], creators=[], ads=[], tags=[], places=[])
    assert sorted(server.indices) == sorted(initial(kind) for kind in KINDS)
    assert not server.calls("POST", "/_aliases")
    assert set(server.docs("touratlas-tours")) == {"1"}


def test_reset_swaps_in_empty_indices_without_carrying_vectors(
    es: ElasticsearchIndex, server: FakeElasticsearch
) -> None:
    es.upsert_tours([tour(1)])
    es.set_vectors({1: [0.5] * 384})
    server.requests.clear()
    es.reset()
    assert es.document_count() == 0
    assert not server.calls(contains="scroll")
    assert all(len(targets) == 1 and "initial" not in targets[0] for targets in server.alias_targets().values())


def test_an_index_named_like_an_alias_is_refused(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    server.indices["touratlas-tours"] = FakeIndex({}, {})
    with pytest.raises(SearchIndexError, match="not an alias"):
        es.upsert_tours([tour(1)])


def test_concurrent_bootstrap_reuses_the_existing_initial_index(fake: tuple[FakeElasticsearch, str]) -> None:
    server, url = fake
    server.indices[initial("tours")] = FakeIndex({}, {})  # created by another process, alias pending
    index = ElasticsearchIndex(url)
    index.document_count()
    assert server.alias_targets()["touratlas-tours"] == [initial("tours")]
    assert server.calls("PUT", f"/{initial('tours')}/_alias/touratlas-tours")


# --------------------------------------------------------------------------- writes


def test_counters_are_folded_in_and_favorite_follows(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    es.upsert_tours([tour(1)])
    server.requests.clear()
    es.update_counters({1: {"likes": 40.0, "saves": 2.0, "trending": 3.5}, 404: {"views": 1.0}})
    header, action = server.calls(contains="_bulk")[0].ndjson()[:2]
    assert header == {"update": {"_index": "touratlas-tours", "_id": "1", "retry_on_conflict": 3}}
    assert action["script"]["params"]["counters"] == {"likes": 40, "saves": 2, "trending": 3.5}
    stored = server.docs("touratlas-tours")["1"]
    assert (stored["likes"], stored["saves"], stored["favorite"], stored["trending"]) == (40, 2, 42, 3.5)


def test_bad_counters_and_vectors_are_refused_before_any_write(
    es: ElasticsearchIndex, server: FakeElasticsearch
) -> None:
    with pytest.raises(ValueError, match="unknown tour counters"):
        es.update_counters({1: {"views": 1.0}, 2: {"clicks": 1.0}})
    with pytest.raises(ValueError, match="384"):
        es.set_vectors({1: [1.0, 2.0]})
    assert not server.calls(contains="_bulk")


def test_deletes_of_missing_documents_are_not_errors(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    es.upsert_tours([tour(1)])
    es.upsert_creators([creator(1)])
    es.upsert_ads([ad(1)])
    es.upsert_tags([tag(5)])
    assert es.upsert_places([place("p1")]) == 1
    es.delete_tours([1, 2])
    es.delete_creators([1])
    es.delete_ads([1, 7])
    es.delete_tags([5])
    assert server.docs("touratlas-tours") == server.docs("touratlas-creators") == {}
    assert server.docs("touratlas-ads") == server.docs("touratlas-tags") == {}
    deletes = [line for r in server.calls(contains="_bulk") for line in r.ndjson() if "delete" in line]
    assert {"delete": {"_index": "touratlas-tours", "_id": "2"}} in deletes


def test_a_rejected_document_raises(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    server.failing_ids = {"2"}
    with pytest.raises(BulkIndexError):
        es.upsert_creators([creator(1), creator(2)])


def test_big_writes_refresh_once_at_the_end_and_an_edit_waits_for_its_change(
    es: ElasticsearchIndex, server: FakeElasticsearch
) -> None:
    """Review (f): `refresh=wait_for` on every 500-document chunk makes the daily score refresh wait
    up to a refresh interval per chunk; a big write sends its chunks plainly and refreshes once.
    A write that fits one request (a tour saved after an edit) still returns once it is visible."""
    many = range(1, 1202)
    for write in (
        lambda: es.upsert_tours([tour(n) for n in many]),  # reindex-sized
        lambda: es.update_counters({n: {"views": 5.0} for n in many}),  # the daily score refresh
        lambda: es.set_vectors({n: [0.5] * 384 for n in range(1, 602)}),  # stored vectors after a reindex
    ):
        server.requests.clear()
        write()
        bulks = server.calls(contains="_bulk")
        assert len(bulks) >= 2 and all("refresh" not in bulk.params for bulk in bulks)
        (refresh,) = server.calls(contains="_refresh")
        assert refresh.path == "/touratlas-tours/_refresh"
    server.requests.clear()
    es.upsert_tours([tour(7)])
    (bulk,) = server.calls(contains="_bulk")
    assert bulk.params == {"refresh": "wait_for"}
    assert not server.calls(contains="_refresh")


def test_drop_all_deletes_this_prefix_indices_and_nothing_else(fake: tuple[FakeElasticsearch, str]) -> None:
    """Review (e): the contract suite's teardown; without it every run leaked its indices."""
    server, url = fake
    mine, shorter, longer = (ElasticsearchIndex(url, prefix=p) for p in ("test-a1", "test-a", "test-a1-tours"))
    for adapter in (shorter, longer):  # prefixes that mine is a prefix of, or that are a prefix of mine
        adapter.upsert_tours([tour(1)])
    others = set(server.indices)
    mine.upsert_tours([tour(1)])
    mine.rebuild(tours=[tour(2)], creators=[], ads=[], tags=[], places=[])
    server.indices["test-a1-tours-v0-20240101000000000000"] = FakeIndex({}, {}, set())  # left by a failed rebuild

    mine.drop_all()

    assert set(server.indices) == others
    assert server.resolve("test-a1-tours") == []
    mine.upsert_tours([tour(3)])  # and the adapter starts afresh
    assert list(server.docs("test-a1-tours")) == ["3"]
    for adapter in (mine, shorter, longer):
        adapter.close()


def test_the_connection_pool_serves_every_request_a_process_runs_at_once() -> None:
    """Review (g): ten connections per node while a process serves 24 requests at once."""
    from app.core.settings import Settings

    in_flight = Settings.model_fields["max_requests_in_flight"].default
    default = ElasticsearchIndex("http://127.0.0.1:9")
    sized = ElasticsearchIndex("http://127.0.0.1:9", connections_per_node=64)
    (default_node,) = default.client.transport.node_pool.all()
    (sized_node,) = sized.client.transport.node_pool.all()
    assert default_node.config.connections_per_node >= in_flight
    assert sized_node.config.connections_per_node == 64
    default.close()
    sized.close()


def test_the_contract_suite_probes_elasticsearch_url() -> None:
    """Part 6: the Elasticsearch contract cases run whenever the URL answers, else skip with why."""
    from tests.index.conftest import elasticsearch_unavailable

    assert "not set" in (elasticsearch_unavailable("") or "")
    assert "does not answer" in (elasticsearch_unavailable("http://127.0.0.1:9") or "")


def test_the_contract_probe_accepts_a_server_that_answers(fake: tuple[FakeElasticsearch, str]) -> None:
    from tests.index.conftest import elasticsearch_unavailable

    assert elasticsearch_unavailable(fake[1]) is None


def test_nothing_to_write_sends_nothing(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    assert es.upsert_tours([]) == 0
    es.delete_tours([])
    es.update_counters({})
    assert not server.calls(contains="_bulk")


# --------------------------------------------------------------------------- reads


def test_feed_sends_the_query_body_and_returns_cards(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    query = FeedQuery(filter=TourFilter(categories=(2,), text="tou"), sort=Sort.LIKES, limit=2, offset=4)
    docs = [tour(9), tour(8)]
    server.queue(
        "/touratlas-tours/_search",
        search_response([hit(initial("tours"), str(d.id), tour_source(d), [d.likes, d.id]) for d in docs], total=31),
    )
    page = es.feed(query)
    (sent,) = server.calls("POST", "/touratlas-tours/_search")
    assert sent.json() == json.loads(json.dumps(q.feed_body(query)))
    assert page.ids == [9, 8] and page.total == 31
    assert page.docs == [tour_card(d) for d in docs]


def test_the_newest_mappings_declare_every_field_the_adapter_writes() -> None:
    """The mappings are `dynamic: strict`: Elasticsearch refuses a document with an undeclared field
    (the fake does not check; this does, for every kind)."""
    specs = index_specs()
    sources = {
        "tours": tour_source(tour(1)),
        "creators": creator_source(creator(1)),
        "ads": ad_source(ad(1)),
        "tags": tag_source(tag(1)),
        "places": place_source(place("p1")),
    }
    for kind, source in sources.items():
        declared = set(specs[kind].mappings["properties"])
        assert set(source) - declared == set(), kind
    assert specs["creators"].version == 2  # the Full Profile fields came with creators.v2.json
    assert specs["tours"].version == 2 and "unlisted" in sources["tours"]  # Unlisted came with tours.v2.json


def test_a_creator_document_is_read_back_whole(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    es.upsert_creators([creator(4)])
    assert server.docs("touratlas-creators")["4"]["services"] == ["Drone", "Floor plans"]
    assert es.creator_document(4) == creator(4)
    assert es.creator_document(5) is None
    # A document stored by creators.v1 (no Full Profile fields) still reads, with their defaults.
    old = {key: value for key, value in creator_source(creator(6)).items() if key not in ("services", "trusted")}
    server.docs("touratlas-creators")["6"] = json.loads(json.dumps(old))
    assert es.creator_document(6) == replace(creator(6), services=(), trusted=False)


def test_creators_and_ads_pages(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    server.queue("/touratlas-creators/_search", search_response([hit("c", "4", creator_source(creator(4)))], total=1))
    server.queue("/touratlas-ads/_search", search_response([hit("a", "2", ad_source(ad(2)))], total=5))
    creators = es.creators(CreatorQuery(text="nor", sort=Sort.FAVORITE))
    ads = es.ads(1, seed="visitor")
    assert creators.docs == [creator_card(creator(4))] and creators.ids == [4]
    assert ads.docs == [ad_card(ad(2))] and ads.total == 1  # ads are not counted: the ads returned
    assert server.calls(contains="/touratlas-ads/_search")[0].json() == q.ads_body(1, "visitor")


def test_map_returns_points_when_the_box_holds_few_tours(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    query = MapQuery(
        filter=TourFilter(), bbox=BBox(west=2.0, south=48.0, east=3.0, north=49.0), zoom=15, max_points=500
    )
    docs = [tour(2), tour(1)]
    server.queue("/touratlas-tours/_search", search_response([], total=2, aggregations={"cells": {"buckets": []}}))
    server.queue(
        "/touratlas-tours/_search", search_response([hit("t", str(d.id), tour_source(d)) for d in docs], total=2)
    )
    answer = es.map_area(query)
    first, second = server.calls("POST", "/touratlas-tours/_search")
    assert first.json() == json.loads(json.dumps(q.map_clusters_body(query)))
    assert second.json() == json.loads(json.dumps(q.map_points_body(query, 2)))
    assert answer.total == 2 and answer.clusters == []
    assert answer.points == [map_point(d) for d in docs]
    assert answer.points[0]["lat"] == docs[0].lat


def test_map_returns_geotile_clusters_when_the_box_is_crowded(
    es: ElasticsearchIndex, server: FakeElasticsearch
) -> None:
    query = MapQuery(
        filter=TourFilter(), bbox=BBox(west=-180.0, south=-85.0, east=180.0, north=85.0), zoom=2, max_points=2
    )
    buckets = [
        {
            "key": "4/8/5",
            "doc_count": 3,
            "centroid": {"location": {"lat": 48.86, "lon": 2.34}, "count": 3},
            "extent": {"bounds": {"top_left": {"lat": 48.9, "lon": 2.3}, "bottom_right": {"lat": 48.8, "lon": 2.4}}},
            "first_id": {"value": 1.0},
        },
        {
            "key": "4/2/6",
            "doc_count": 1,
            "centroid": {"location": {"lat": 40.7, "lon": -74.0}, "count": 1},
            "extent": {
                "bounds": {"top_left": {"lat": 40.7, "lon": -74.0}, "bottom_right": {"lat": 40.7, "lon": -74.0}}
            },
            "first_id": {"value": 7.0},
        },
    ]
    lone = tour(7, lat=40.7, lng=-74.0)
    server.queue("/touratlas-tours/_search", search_response([], total=4, aggregations={"cells": {"buckets": buckets}}))
    server.queue("/touratlas-tours/_search", search_response([hit("t", "7", tour_source(lone))], total=1))
    answer = es.map_area(query)
    (cluster,) = answer.clusters
    assert (cluster.cell, cluster.count, cluster.lat, cluster.lng) == ("4/8/5", 3, 48.86, 2.34)
    assert 3 <= cluster.expansion_zoom <= 18
    assert answer.points == [map_point(lone)] and answer.total == 4
    assert server.calls("POST", "/touratlas-tours/_search")[1].json() == q.tours_by_ids_body([7])


def test_suggest_sends_one_msearch_and_ranks_across_kinds(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    paris_tour = tour(3, title="Paris rooftops", views=500)
    server.queue(
        "/_msearch",
        {
            "took": 2,
            "responses": [
                {**search_response([hit("t", "3", tour_source(paris_tour))], total=1), "status": 200},
                {**search_response([], total=0), "status": 200},
                {
                    **search_response([hit("g", "5", {"id": 5, "name": "parisnight", "vt_count": 2})], total=1),
                    "status": 200,
                },
                {
                    **search_response(
                        [
                            hit(
                                "p",
                                "p1",
                                {
                                    "id": "p1",
                                    "name": "Paris",
                                    "lat": 48.85,
                                    "lng": 2.35,
                                    "bbox": [2.2, 48.8, 2.5, 48.9],
                                    "vt_count": 9,
                                    "weight": 2e6,
                                },
                            )
                        ],
                        total=1,
                    ),
                    "status": 200,
                },
            ],
        },
    )
    found = es.suggest(SuggestQuery(text="Paris", limit=3))
    (sent,) = server.calls("POST", "/_msearch")
    lines = sent.ndjson()
    assert sent.headers["content-type"] == "application/vnd.elasticsearch+x-ndjson; compatible-with=8"
    assert lines[0::2] == [{"index": ALIASES[kind]} for kind in ("tours", "creators", "tags", "places")]
    assert lines[1] == q.suggest_body(SuggestKind.TOUR, "Paris", SuggestQuery(text="Paris", limit=3))
    assert [s.type for s in found] == [SuggestKind.PLACE, SuggestKind.TOUR, SuggestKind.TAG]
    assert found[0].center == (2.35, 48.85) and found[0].bbox == (2.2, 48.8, 2.5, 48.9) and found[0].vt_count == 9
    assert (found[1].id, found[1].text, found[1].creator_id, found[1].category) == ("g-3", "Paris rooftops", 11, 2)


def test_suggest_by_kind_prefix_asks_one_index(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    creator_source_hit = {
        "id": 4,
        "creator_name": "Studio North",
        "platform_username": "north",
        "vt_count": 4,
        "weight": 219.0,
    }
    server.queue(
        "/_msearch",
        {"took": 1, "responses": [{**search_response([hit("c", "4", creator_source_hit)], total=1), "status": 200}]},
    )
    (found,) = es.suggest(SuggestQuery(text="@nor"))
    assert server.calls("POST", "/_msearch")[0].ndjson()[0] == {"index": "touratlas-creators"}
    assert (found.type, found.id, found.text, found.creator_id) == (SuggestKind.CREATOR, "4", "Studio North @north", 4)
    assert es.suggest(SuggestQuery(text="#")) == []
    assert len(server.calls("POST", "/_msearch")) == 1


def test_a_failed_suggest_search_is_reported(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    server.queue(
        "/_msearch", {"took": 1, "responses": [{"error": {"type": "index_not_found_exception"}, "status": 404}]}
    )
    with pytest.raises(SearchIndexError, match="suggest tag"):
        es.suggest(SuggestQuery(text="#beach"))


def test_similar_sends_knn_and_the_candidate_count_in_one_msearch(
    es: ElasticsearchIndex, server: FakeElasticsearch
) -> None:
    """Review (i): the knn search counts nothing (its hits.total would be k); the total comes from a
    count of the candidates, in the same round trip."""
    query = SimilarQuery(vector=[0.1] * 384, limit=2, exclude_ids=(1,), filter=TourFilter(categories=(2,)))
    docs = [tour(4), tour(5)]
    neighbours = search_response([{**hit("t", str(d.id), tour_source(d)), "_score": 0.9} for d in docs], total=2)
    del neighbours["hits"]["total"]  # track_total_hits: false
    server.queue("/_msearch", {"took": 1, "responses": [neighbours, search_response([], total=37)]})
    page = es.similar(query)
    (sent,) = server.calls("POST", "/_msearch")
    assert sent.ndjson() == json.loads(
        json.dumps(
            [
                {"index": "touratlas-tours"},
                q.similar_body(query),
                {"index": "touratlas-tours"},
                q.similar_count_body(query),
            ]
        )
    )
    assert page.ids == [4, 5] and page.docs == [tour_card(d) for d in docs]
    assert page.total == 37
    assert es.similar(SimilarQuery(vector=[0.1] * 384, limit=0)).ids == []


def test_tour_ids_and_count_read_the_whole_index(es: ElasticsearchIndex, server: FakeElasticsearch) -> None:
    es.upsert_tours([tour(1), tour(2), tour(3)])
    assert es.tour_ids() == {1, 2, 3}
    assert es.document_count() == 3
    scan = server.calls("POST", "/touratlas-tours/_search")[0]
    assert scan.params["scroll"] == "5m" and scan.json()["_source"] is False
    assert server.calls("DELETE", "/_search/scroll")


# --------------------------------------------------------------------------- health


def test_health_reports_ok_stale_mappings_and_unreachable(fake: tuple[FakeElasticsearch, str]) -> None:
    server, url = fake
    index = ElasticsearchIndex(url)
    assert index.health() == "ok (elasticsearch green, 0 tours)"
    server.indices[initial("tours")].aliases.clear()
    server.indices["touratlas-tours-v0-old"] = FakeIndex({}, {}, {"touratlas-tours"})
    assert index.health() == "mappings changed for tours: run a reindex"
    assert index.outdated() == ["tours"]
    index.close()

    unreachable = ElasticsearchIndex("http://127.0.0.1:9", client=Elasticsearch("http://127.0.0.1:9", max_retries=0))
    assert unreachable.health().startswith("elasticsearch unavailable")
    with pytest.raises(Exception, match="Connection"):
        unreachable.feed(FeedQuery())
