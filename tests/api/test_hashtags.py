"""Hashtags in descriptions (issue 18 part 6) over HTTP: `#words` that name an existing tag become the
tour's tags (in any language the tag has a name in), within the §5 limit of 10 tags; edits and
approvals follow them; the popular tags count them, on the index, as tours come and go."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications.models import DictionaryKind, DictionaryName, Tag, TagTopicType
from tests import factories
from tests.api.test_tours import Setup, add, build_setup

POPULAR = "/v2/user-recomendations/popular-tags"


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch) -> Setup:
    setup = build_setup(db, monkeypatch)
    # Named tags beside the setup's "Tag 0" … "Tag 11" (all of the Parks category).
    castle = factories.tag(db, "Castle", setup.parks)
    factories.tag(db, "Golden Hour", setup.parks)
    factories.tag(db, "Bird's Eye View", setup.museums)
    db.add(DictionaryName(kind=DictionaryKind.tag, entity_id=castle.id, language="ru", scope="", name="Замок"))
    db.add(Tag(name="Пляж", topic_type=TagTopicType.category, topic_id=setup.parks.id))
    db.commit()
    return setup


def tag_id(db: Session, name: str) -> int:
    return int(db.execute(select(Tag.id).where(Tag.name == name)).scalar_one())


def tags_of(tour: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(tag["name"], tag["hashtag"]) for tag in tour["tags"]]


def popular(client: TestClient, **params: Any) -> dict[str, int]:
    response = client.get(POPULAR, params={"limit": 100, **params})
    assert response.status_code == 200, response.text
    return {tag["name"]: tag["vt_count"] for tag in response.json()["data"]}


def test_hashtags_that_name_a_tag_become_tags_after_the_forms_own(client: TestClient, s: Setup) -> None:
    description = (
        "Dawn at the #castle, then #GoldenHour on the walls. #nosuchtag stays text, "
        "so do C# and https://example.com/page#Castle, and #birds_eye_view names a museum tag."
    )
    tour = add(client, s, s.admin, description=description)["data"]
    assert tags_of(tour) == [
        ("Tag 0", None),
        ("Tag 1", None),
        ("Castle", "castle"),
        ("Golden Hour", "GoldenHour"),
        ("Bird's Eye View", "birds_eye_view"),
    ]
    assert tour["description"] == description  # the text is kept as written
    again = client.get(f"/v2/virtualtours/{tour['guid']}").json()
    assert tags_of(again) == tags_of(tour)


def test_a_tag_the_form_chose_too_is_kept_once_as_the_hashtags(client: TestClient, db: Session, s: Setup) -> None:
    castle = tag_id(db, "Castle")
    tour = add(client, s, s.admin, description="The #Castle at night", tags=[{"id": castle}])["data"]
    assert tags_of(tour) == [("Castle", "Castle")]


def test_russian_hashtags_name_tags_by_any_of_their_names(client: TestClient, s: Setup) -> None:
    tour = add(client, s, s.admin, description="Вид на #замок и #ПЛЯЖ, #Ёжик — просто слово.", tags=[])["data"]
    assert tags_of(tour) == [("Castle", "замок"), ("Пляж", "ПЛЯЖ")]


def test_the_limit_of_ten_holds_and_the_answer_names_what_was_left_out(
    client: TestClient, db: Session, s: Setup
) -> None:
    nine = [{"id": tag.id} for tag in s.tags[:9]]
    answer = add(client, s, s.admin, description="#castle #golden_hour #birdseyeview", tags=nine)
    assert len(answer["data"]["tags"]) == 10
    assert answer["data"]["tags"][9]["name"] == "Castle"
    assert answer["hashtags_left_out"] == ["golden_hour", "birdseyeview"]

    ten = [{"id": tag.id} for tag in s.tags[:10]]
    full = add(client, s, s.admin, link="https://kuula.co/share/Ten10", description="#castle", tags=ten)
    assert [tag["hashtag"] for tag in full["data"]["tags"]] == [None] * 10
    assert full["hashtags_left_out"] == ["castle"]

    eleven = [{"id": tag.id} for tag in s.tags[:11]]
    refused = client.post(
        "/v2/virtualtours/",
        json=s.payload(link="https://kuula.co/share/Elv11", tags=eleven, description="#castle"),
        headers=s.headers(s.admin),
    )
    assert refused.status_code == 400 and refused.json()["fields"]["tags"] == "At most 10 tags"


def test_an_edit_follows_the_description_and_keeps_the_forms_tags(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.admin, description="#castle and #goldenhour")["data"]["guid"]
    edited = client.put(
        "/v2/virtualtours/",
        json={**s.payload(description="Only the #golden-hour now"), "guid": guid},
        headers=s.headers(s.admin),
    )
    assert edited.status_code == 201, edited.text
    assert tags_of(edited.json()["data"]) == [("Tag 0", None), ("Tag 1", None), ("Golden Hour", "golden-hour")]


def test_an_edit_waiting_for_approval_brings_its_hashtags_when_approved(client: TestClient, s: Setup) -> None:
    guid = add(client, s, s.user)["data"]["guid"]
    client.put(f"/v2/virtualtours/{guid}", json={"task": "approve"}, headers=s.headers(s.admin))
    response = client.put(
        "/v2/virtualtours/",
        json={**s.payload(description="Now with the #castle"), "guid": guid},
        headers=s.headers(s.user),
    )
    assert response.status_code == 200 and response.json()["pending"] is True
    assert tags_of(client.get(f"/v2/virtualtours/{guid}").json()) == [("Tag 0", None), ("Tag 1", None)]
    items = client.get("/v2/virtualtours/approval-items", headers=s.headers(s.admin)).json()["data"]
    edit = next(item for item in items if item["kind"] == "vt_edit")
    decided = client.put(
        "/v2/virtualtours/approval-items", json={"ids": [edit["id"]], "action": "approve"}, headers=s.headers(s.admin)
    )
    assert decided.status_code == 200, decided.text
    tour = client.get(f"/v2/virtualtours/{guid}").json()
    assert tags_of(tour) == [("Tag 0", None), ("Tag 1", None), ("Castle", "castle")]


def test_a_hashtag_tag_opens_the_tag_search(client: TestClient, db: Session, s: Setup) -> None:
    guid = add(client, s, s.admin, description="#castle", tags=[])["data"]["guid"]
    add(client, s, s.admin, link="https://kuula.co/share/Oth01", description="no hashtags", tags=[])
    grid = client.get(
        "/v2/user-recomendations/filtered-grid", params={"mode": "media", "tags": str(tag_id(db, "Castle"))}
    ).json()
    assert [card["guid"] for card in grid["data"]] == [guid] and grid["total_items"] == 1


def test_popular_tags_count_hashtags_and_follow_edits_drafts_and_deletes(
    client: TestClient, db: Session, s: Setup
) -> None:
    first = add(client, s, s.admin, description="#castle #goldenhour")["data"]["guid"]
    second = add(client, s, s.admin, link="https://kuula.co/share/Sec02", description="#castle", tags=[])["data"]
    assert popular(client) == {"Castle": 2, "Tag 0": 1, "Tag 1": 1, "Golden Hour": 1}
    listed = client.get(POPULAR, params={"limit": 1}).json()
    castle = {"id": tag_id(db, "Castle"), "name": "Castle", "vt_count": 2}
    assert listed["total_items"] == 4 and listed["data"] == [castle]

    # The edit drops #goldenhour; the second tour goes to drafts: both counts fall.
    edit = {**s.payload(description="#castle"), "guid": first}
    client.put("/v2/virtualtours/", json=edit, headers=s.headers(s.admin))
    client.put(f"/v2/virtualtours/{second['guid']}", json={"task": "deactivate"}, headers=s.headers(s.admin))
    assert popular(client) == {"Castle": 1, "Tag 0": 1, "Tag 1": 1}
    client.delete(f"/v2/virtualtours/{first}", headers=s.headers(s.admin))
    assert popular(client) == {}


def test_popular_tags_speak_the_callers_language_and_narrow_by_topic(client: TestClient, s: Setup) -> None:
    add(client, s, s.admin, description="#castle #birdseyeview", tags=[])
    russian = client.get(POPULAR, headers={"Accept-Language": "ru"}).json()["data"]
    assert [tag["name"] for tag in russian] == ["Замок", "Bird's Eye View"]
    assert popular(client, category_id=s.museums.id) == {"Bird's Eye View": 1}


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"offset": -1}, "offset"),
        ({"category_id": "x"}, "category_id"),
    ],
)
def test_popular_tags_refuse_bad_paging_with_a_400(client: TestClient, params: dict[str, Any], field: str) -> None:
    response = client.get(POPULAR, params=params)
    assert response.status_code == 400 and field in response.json()["fields"]
