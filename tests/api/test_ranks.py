"""Ranks (spec §7 Media and Creators `ranks`, `ranks/bulk`, `ranks/calc`) and POST embeddings:
admins set rank sources' values for tours and creators, the index hears of every change through the
outbox, and the calculation and the embeddings run as background tasks after the commit."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.classifications.models import Rank, RankSource
from app.classifications.suggestions import EMBEDDINGS_OFF
from app.core import tasks
from app.core.outbox import OutboxEntry
from app.core.security import hash_password
from app.core.settings import get_settings
from app.creators.models import Creator
from app.tours.models import Tour
from app.users.models import User
from tests import factories

TOUR_RANKS = "/v2/virtualtours/ranks"
CREATOR_RANKS = "/v2/creators/ranks"


@lru_cache
def _password_hash(password: str) -> str:
    return hash_password(password)


@dataclass
class World:
    admin: User
    user: User
    trending: RankSource
    featured: RankSource
    tours: dict[str, Tour]
    creator: Creator

    @property
    def headers(self) -> dict[str, str]:
        return factories.bearer(self.admin)


@pytest.fixture
def w(db: Session, monkeypatch: pytest.MonkeyPatch) -> World:
    monkeypatch.setattr(factories, "hash_password", _password_hash)
    catalog = factories.catalog(db)
    admin, owner = factories.user(db, admin=True), factories.user(db)
    trending, featured = RankSource(name="Trending"), RankSource(name="Featured")
    db.add_all([trending, featured])
    made = {name: catalog.tour(db, owner, title=name) for name in ("Alps", "Baltic", "Crete")}
    creator = factories.creator(db, owner, creator_name="Studio North")
    db.commit()
    return World(admin, owner, trending, featured, made, creator)


@dataclass
class RecordingRunner:
    submitted: list[tuple[str, dict[str, Any]]]

    def submit(self, name: str, **kwargs: Any) -> None:
        self.submitted.append((name, kwargs))


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingRunner]:
    recording = RecordingRunner([])
    monkeypatch.setattr(tasks, "get_task_runner", lambda: recording)
    yield recording


def outbox_count(db: Session, topic: str, aggregate_id: int) -> int:
    statement = select(func.count()).where(OutboxEntry.topic == topic, OutboxEntry.aggregate_id == str(aggregate_id))
    return int(db.scalar(statement) or 0)


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


# ------------------------------------------------------------------------------ tours


def test_tour_ranks_are_added_listed_changed_and_deleted(client: TestClient, db: Session, w: World) -> None:
    alps = w.tours["Alps"]
    before = outbox_count(db, "index.tour", alps.id)
    body = {"guid": alps.guid, "rank_source_id": w.trending.id, "value": 2.5, "position": 1}
    added = ok(client.post(TOUR_RANKS, json=body, headers=w.headers), 201)
    assert {key: added[key] for key in ("rank_source_id", "rank_source", "guid", "title", "value", "position")} == {
        "rank_source_id": w.trending.id,
        "rank_source": "Trending",
        "guid": alps.guid,
        "title": "Alps",
        "value": 2.5,
        "position": 1,
    }
    assert outbox_count(db, "index.tour", alps.id) == before + 1

    again = client.post(TOUR_RANKS, json={**body, "value": 9}, headers=w.headers)
    assert again.status_code == 409
    changed = ok(client.put(TOUR_RANKS, json={"id": added["id"], "value": -1.25}, headers=w.headers))
    assert changed["value"] == -1.25 and changed["position"] is None and changed["guid"] == alps.guid
    assert outbox_count(db, "index.tour", alps.id) == before + 2

    page = ok(client.get(TOUR_RANKS, headers=w.headers))
    assert page["total_items"] == 1 and page["data"][0]["id"] == added["id"] and page["data"][0]["value"] == -1.25

    deleted = client.request("DELETE", TOUR_RANKS, json={"id": added["id"]}, headers=w.headers)
    assert ok(deleted)["message"] == "The rank has been deleted"
    assert db.scalar(select(func.count()).select_from(Rank)) == 0
    assert outbox_count(db, "index.tour", alps.id) == before + 3
    assert client.request("DELETE", TOUR_RANKS, json={"id": added["id"]}, headers=w.headers).status_code == 404
    assert client.put(TOUR_RANKS, json={"id": added["id"], "value": 1}, headers=w.headers).status_code == 404


def test_listing_by_source_and_tour_highest_first(client: TestClient, w: World) -> None:
    values = {
        ("Alps", w.trending): 1.0,
        ("Baltic", w.trending): 3.0,
        ("Crete", w.trending): 2.0,
        ("Alps", w.featured): 7,
    }
    for (title, source), value in values.items():
        body = {"guid": w.tours[title].guid, "rank_source_id": source.id, "value": value}
        ok(client.post(TOUR_RANKS, json=body, headers=w.headers), 201)

    everything = ok(client.get(TOUR_RANKS, headers=w.headers))
    # By source name (Featured before Trending), then highest value first.
    assert [(row["rank_source"], row["title"]) for row in everything["data"]] == [
        ("Featured", "Alps"),
        ("Trending", "Baltic"),
        ("Trending", "Crete"),
        ("Trending", "Alps"),
    ]
    trending = ok(client.get(TOUR_RANKS, params={"rank_source_id": w.trending.id, "limit": 2}, headers=w.headers))
    assert [row["title"] for row in trending["data"]] == ["Baltic", "Crete"] and trending["total_items"] == 3
    rest = ok(client.get(TOUR_RANKS, params={"rank_source_id": w.trending.id, "offset": 2}, headers=w.headers))
    assert [row["title"] for row in rest["data"]] == ["Alps"]
    alps = ok(client.get(TOUR_RANKS, params={"guid": w.tours["Alps"].guid}, headers=w.headers))
    assert sorted(row["value"] for row in alps["data"]) == [1.0, 7.0] and alps["total_items"] == 2


def test_bad_tour_rank_requests(client: TestClient, w: World) -> None:
    guid = w.tours["Alps"].guid
    unknown_source = client.post(
        TOUR_RANKS, json={"guid": guid, "rank_source_id": 98765, "value": 1}, headers=w.headers
    )
    assert unknown_source.status_code == 400 and unknown_source.json()["fields"] == {
        "rank_source_id": "Unknown rank source"
    }
    unknown_tour = client.post(
        TOUR_RANKS, json={"guid": "0" * 32, "rank_source_id": w.trending.id, "value": 1}, headers=w.headers
    )
    assert unknown_tour.status_code == 404
    for value in (1e9, "lots"):
        bad = client.post(
            TOUR_RANKS, json={"guid": guid, "rank_source_id": w.trending.id, "value": value}, headers=w.headers
        )
        assert bad.status_code == 400 and "value" in bad.json()["fields"], value
    no_place = client.post(
        TOUR_RANKS, json={"guid": guid, "rank_source_id": w.trending.id, "value": 1, "position": 0}, headers=w.headers
    )
    assert no_place.status_code == 400 and "position" in no_place.json()["fields"]


def test_bulk_adds_and_changes(client: TestClient, db: Session, w: World) -> None:
    alps, baltic, crete = (w.tours[name] for name in ("Alps", "Baltic", "Crete"))
    ok(
        client.post(
            TOUR_RANKS, json={"guid": alps.guid, "rank_source_id": w.trending.id, "value": 1}, headers=w.headers
        ),
        201,
    )
    before = outbox_count(db, "index.tour", crete.id)
    bulk = {
        "ranks": [
            {"guid": alps.guid, "rank_source_id": w.trending.id, "value": 4},
            {"guid": baltic.guid, "rank_source_id": w.trending.id, "value": 5},
            {"guid": crete.guid, "rank_source_id": w.featured.id, "value": 1},
            {"guid": crete.guid, "rank_source_id": w.featured.id, "value": 6, "position": 2},  # the last one wins
        ]
    }
    answer = ok(client.post(f"{TOUR_RANKS}/bulk", json=bulk, headers=w.headers))
    assert (answer["created"], answer["updated"]) == (2, 1)
    assert answer["message"] == "2 rank(s) added, 1 changed"
    db.expire_all()
    stored = {(row.entity_id, row.rank_source_id): (row.value, row.position) for row in db.scalars(select(Rank))}
    assert stored == {
        (alps.id, w.trending.id): (4, None),
        (baltic.id, w.trending.id): (5, None),
        (crete.id, w.featured.id): (6, 2),
    }
    assert outbox_count(db, "index.tour", crete.id) == before + 1


def test_bulk_names_every_unknown_tour_and_changes_nothing(client: TestClient, db: Session, w: World) -> None:
    bulk = {
        "ranks": [
            {"guid": w.tours["Alps"].guid, "rank_source_id": w.trending.id, "value": 4},
            {"guid": "missing-one", "rank_source_id": w.trending.id, "value": 4},
            {"guid": "missing-two", "rank_source_id": w.trending.id, "value": 4},
        ]
    }
    response = client.post(f"{TOUR_RANKS}/bulk", json=bulk, headers=w.headers)
    assert response.status_code == 400
    assert response.json()["fields"] == {"ranks.1.guid": "Unknown tours", "ranks.2.guid": "Unknown tours"}
    bad_source = {"ranks": [{"guid": w.tours["Alps"].guid, "rank_source_id": 98765, "value": 1}]}
    assert client.post(f"{TOUR_RANKS}/bulk", json=bad_source, headers=w.headers).status_code == 400
    assert client.post(f"{TOUR_RANKS}/bulk", json={"ranks": []}, headers=w.headers).status_code == 400
    assert db.scalar(select(func.count()).select_from(Rank)) == 0


def test_ranks_calc_runs_the_calculation_after_the_commit(client: TestClient, db: Session, w: World) -> None:
    """A Trending value is a boost on the trending score; the calculation (eager in tests) applies it."""
    baltic = w.tours["Baltic"]
    body = {"guid": baltic.guid, "rank_source_id": w.trending.id, "value": 2.5}
    ok(client.post(TOUR_RANKS, json=body, headers=w.headers), 201)
    db.expire_all()
    assert db.get(Tour, baltic.id).trending_score == 0  # type: ignore[union-attr]
    answer = ok(client.post(f"{TOUR_RANKS}/calc", headers=w.headers), 202)
    assert answer["message"] == "The rank calculation has started"
    db.expire_all()
    assert db.get(Tour, baltic.id).trending_score == 2.5  # type: ignore[union-attr]
    feed = client.get("/v2/user-recomendations/filtered-grid", params={"feed": "trending", "mode": "media"}).json()
    assert next(card["title"] for card in feed["data"] if card["type"] == "vt") == "Baltic"


def test_ranks_calc_is_a_task_not_work_in_the_request(client: TestClient, w: World, runner: RecordingRunner) -> None:
    ok(client.post(f"{TOUR_RANKS}/calc", headers=w.headers), 202)
    ok(client.post("/v2/creators/ranks/calc", headers=w.headers), 202)
    assert [name for name, _kwargs in runner.submitted] == ["ranks.calc", "ranks.calc"]


def test_deleting_a_tour_deletes_its_ranks(client: TestClient, db: Session, w: World) -> None:
    alps = w.tours["Alps"]
    for source in (w.trending, w.featured):
        body = {"guid": alps.guid, "rank_source_id": source.id, "value": 1}
        ok(client.post(TOUR_RANKS, json=body, headers=w.headers), 201)
    ok(client.delete(f"/v2/virtualtours/{alps.guid}", headers=w.headers))
    assert db.scalar(select(func.count()).select_from(Rank)) == 0


# ------------------------------------------------------------------------------ creators


def test_creator_ranks_are_added_listed_and_changed(client: TestClient, db: Session, w: World) -> None:
    before = outbox_count(db, "index.creator", w.creator.id)
    body = {"creator_id": w.creator.id, "rank_source_id": w.featured.id, "value": 3}
    added = ok(client.post(CREATOR_RANKS, json=body, headers=w.headers), 201)
    assert added["creator_id"] == w.creator.id and added["creator_name"] == "Studio North"
    assert added["rank_source"] == "Featured" and added["value"] == 3
    assert outbox_count(db, "index.creator", w.creator.id) == before + 1
    assert client.post(CREATOR_RANKS, json=body, headers=w.headers).status_code == 409

    changed = ok(client.put(CREATOR_RANKS, json={"id": added["id"], "value": 8, "position": 1}, headers=w.headers))
    assert (changed["value"], changed["position"]) == (8, 1)
    assert outbox_count(db, "index.creator", w.creator.id) == before + 2

    page = ok(client.get(CREATOR_RANKS, params={"creator_id": w.creator.id}, headers=w.headers))
    assert [row["id"] for row in page["data"]] == [added["id"]] and page["total_items"] == 1
    assert ok(client.get(CREATOR_RANKS, params={"rank_source_id": w.trending.id}, headers=w.headers))["data"] == []


def test_tour_and_creator_ranks_are_kept_apart(client: TestClient, w: World) -> None:
    tour_rank = ok(
        client.post(
            TOUR_RANKS,
            json={"guid": w.tours["Alps"].guid, "rank_source_id": w.trending.id, "value": 1},
            headers=w.headers,
        ),
        201,
    )
    assert ok(client.get(CREATOR_RANKS, headers=w.headers))["data"] == []
    # A tour's rank row is not a creator's to change, and the other way round.
    assert client.put(CREATOR_RANKS, json={"id": tour_rank["id"], "value": 2}, headers=w.headers).status_code == 404
    creator_rank = ok(
        client.post(
            CREATOR_RANKS,
            json={"creator_id": w.creator.id, "rank_source_id": w.trending.id, "value": 1},
            headers=w.headers,
        ),
        201,
    )
    assert client.put(TOUR_RANKS, json={"id": creator_rank["id"], "value": 2}, headers=w.headers).status_code == 404
    assert [row["id"] for row in ok(client.get(TOUR_RANKS, headers=w.headers))["data"]] == [tour_rank["id"]]


def test_unknown_creator_or_source(client: TestClient, w: World) -> None:
    missing = client.post(
        CREATOR_RANKS, json={"creator_id": 98765, "rank_source_id": w.trending.id, "value": 1}, headers=w.headers
    )
    assert missing.status_code == 404 and missing.json()["message"] == "Creator not found"
    no_source = client.post(
        CREATOR_RANKS, json={"creator_id": w.creator.id, "rank_source_id": 98765, "value": 1}, headers=w.headers
    )
    assert no_source.status_code == 400 and no_source.json()["fields"] == {"rank_source_id": "Unknown rank source"}


# ------------------------------------------------------------------------------ embeddings


def test_embeddings_are_refused_while_turned_off(client: TestClient, w: World, runner: RecordingRunner) -> None:
    assert get_settings().embeddings_enabled is False  # the tests' settings
    response = client.post("/v2/virtualtours/embeddings", headers=w.headers)
    assert response.status_code == 400 and response.json()["message"] == EMBEDDINGS_OFF
    assert runner.submitted == []


def test_embeddings_are_computed_in_the_background(
    client: TestClient, w: World, runner: RecordingRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "embeddings_enabled", True)
    answer = ok(client.post("/v2/virtualtours/embeddings", headers=w.headers), 202)
    assert answer["message"] == "The tour embeddings are being computed"
    alps, crete = w.tours["Alps"], w.tours["Crete"]
    body = {"tours": [crete.guid, alps.guid, alps.guid]}
    ok(client.post("/v2/virtualtours/embeddings", json=body, headers=w.headers), 202)
    assert runner.submitted == [("embeddings.tours", {}), ("embeddings.tours", {"ids": sorted([alps.id, crete.id])})]

    unknown = client.post("/v2/virtualtours/embeddings", json={"tours": ["nope"]}, headers=w.headers)
    assert unknown.status_code == 400 and unknown.json()["fields"] == {"tours": "Unknown tours"}
    assert len(runner.submitted) == 2
