"""Spec §3 Creator card / Creator profile in the search index (issue 13 part 5): an approved profile
and an approved edit reach the index through the outbox with every field the card and the Full
Profile show; a pending or rejected edit leaves the indexed one alone; a deactivated profile leaves.
And an index of an older creators layout is rebuilt at start-up."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.core.db import get_sessionmaker
from app.search.documents import creator_documents
from app.search.registry import get_index
from app.search.sync import ensure_index_built
from indexer.cards import creator_card
from indexer.documents import CreatorDocument
from indexer.embedded.adapter import EmbeddedIndex
from indexer.queries import CreatorQuery
from tests import factories
from tests.api.test_creators_profiles import (  # noqa: F401 - fixtures
    BASE,
    ROOT,
    People,
    become_creator,
    decide,
    fresh_limits,
    payload,
    people,
)


def full_profile_of(doc: CreatorDocument) -> dict[str, Any]:
    """The Full Profile's public fields as the indexed document gives them, under the profile's wire names."""
    return {
        "id": doc.id,
        "userid": doc.user_id,
        "creator_name": doc.creator_name,
        "platform_username": doc.platform_username,
        "description": doc.description or None,
        "logo": doc.logo,
        "img_settings": doc.img_settings,
        "trusted": doc.trusted,
        "services": list(doc.services),
        "website": doc.website,
        "instagram": doc.instagram,
        "twitter": doc.twitter,
        "youtube": doc.youtube,
        "facebook": doc.facebook,
        "linkedin": doc.linkedin,
        "views": doc.views,
        "likes": doc.likes,
        "followers": doc.followers,
        "activeTours": doc.vt_count,
        "area_served": list(doc.locations),
        "default_view": doc.default_view,
        "joined_fb_group": doc.joined_fb_group,
    }


def assert_index_shows(client: TestClient, db: Session, creator_id: int) -> CreatorDocument:
    indexed = get_index().creator_document(creator_id)
    assert indexed is not None
    db.expire_all()
    assert [indexed] == list(creator_documents(db, [creator_id]))  # the index holds what the database says
    profile = client.get(f"{BASE}/by-id/{creator_id}").json()["data"]
    assert {key: profile[key] for key in full_profile_of(indexed)} == full_profile_of(indexed)
    assert indexed.created_at == pytest.approx(datetime.fromisoformat(profile["created_date"]).timestamp())
    return indexed


def test_an_approved_profile_and_an_approved_edit_reach_the_index(
    client: TestClient,
    db: Session,
    people: People,  # noqa: F811 - the fixture imported above
) -> None:
    item_id = become_creator(client, people.user, youtube=None).json()["approval_item_id"]
    decide(client, people.admin, item_id)
    creator_id = client.get(f"{BASE}/by-userid/{people.user.id}").json()["data"]["id"]
    indexed = assert_index_shows(client, db, creator_id)
    assert indexed.services == ("360 photo", "Drone") and indexed.default_view == "map"
    assert indexed.locations == ("Tallinn",) and indexed.description == "Virtual tours of old towns"
    card = next(doc for doc in get_index().creators(CreatorQuery(limit=48)).docs if doc["id"] == creator_id)
    assert card == creator_card(indexed)

    # An edit waits: the index keeps the published profile; a rejected one changes nothing.
    logo = indexed.logo or ""
    edited = payload(logo, id=creator_id, description="Now with drones", services=["Aerial"], default_view="grid")
    pending = client.put(ROOT, json=edited, headers=factories.bearer(people.user))
    assert pending.status_code == 201, pending.text
    assert get_index().creator_document(creator_id) == indexed
    assert decide(client, people.admin, pending.json()["approval_item_id"], "reject").status_code == 200
    assert get_index().creator_document(creator_id) == indexed

    again = client.put(ROOT, json=edited, headers=factories.bearer(people.user))
    assert decide(client, people.admin, again.json()["approval_item_id"]).status_code == 200
    updated = assert_index_shows(client, db, creator_id)
    assert updated.description == "Now with drones" and updated.services == ("Aerial",)
    assert updated.default_view == "grid"

    # Deactivated by an admin: out of the index.
    client.post(
        f"{BASE}/admin-creator-activate-deactivate",
        json={"creator_id": creator_id, "is_active": False},
        headers=factories.bearer(people.admin),
    )
    assert get_index().creator_document(creator_id) is None


def test_an_index_of_an_older_creators_layout_is_rebuilt_at_start_up(db: Session) -> None:
    owner = factories.user(db)
    creator = factories.creator(db, owner, creator_name="Old Layout", services=["Drone"], website="https://old.test")
    db.commit()
    ensure_index_built(get_sessionmaker())
    index = get_index()
    assert isinstance(index, EmbeddedIndex)  # the tests' index; Elasticsearch's stale mappings: tests/unit
    assert index.creator_document(creator.id) is not None
    # What a file written before creators.v2 looks like: rows without documents, no creators layout
    # noted (the other kinds' layouts are current, so only the creators are rebuilt).
    connection = sqlite3.connect(index.path)
    connection.execute("UPDATE creators SET document = NULL")
    connection.execute("DELETE FROM meta WHERE key = 'layout.creators'")
    connection.commit()
    connection.close()
    assert index.outdated() == ["creators"] and index.creator_document(creator.id) is None

    progress: list[str] = []
    ensure_index_built(get_sessionmaker(), progress=progress.append)
    assert progress[0] == "the index layout changed for creators: rebuilding"
    assert index.outdated() == []
    rebuilt = index.creator_document(creator.id)
    assert rebuilt is not None and rebuilt.services == ("Drone",) and rebuilt.website == "https://old.test"
