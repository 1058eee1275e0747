"""The feed route (app/discovery/router.py) validates its own query string instead of letting FastAPI
parse 22 declared parameters: its 400 bodies, its order of checks and its OpenAPI document must be
those of the calls FastAPI parses. The bodies below were recorded from the feed before the route
was merged into one; creator-media, which FastAPI parses against the same FeedQueryString, must answer
the same ones."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.ads.models import Ad
from app.core import outbox_topics
from app.core.security import issue_guest_token, issue_user_token
from app.creators.models import Follow
from app.discovery import router as discovery
from app.discovery.params import FeedQueryString
from app.discovery.schemas import GridPage
from app.engagement.models import TourSave
from app.platform.models import PlatformConfig
from app.tours.models import ApprovalState, TourStatus
from indexer.queries import MAX_RESULT_WINDOW
from tests import factories

GRID = "/v2/user-recomendations/filtered-grid"
NUMBERS = "Expected a comma-separated list of numbers"
COUNTRY_CODES = "Expected two-letter country codes, e.g. FR,DE"
FEEDS = "Input should be 'featured', 'user_favorite', 'popular', 'trending', 'new', 'for_you' or 'saves_follows'"
SORTINGS = "Input should be 'az', 'za', 'newest', 'random', 'likes', 'saves', 'shares', 'views' or 'near_me'"
MODES = "Input should be 'media', 'creators' or 'both'"
NOT_AN_INTEGER = "Input should be a valid integer, unable to parse string as an integer"
BAD_TOKEN = {"message": "Invalid or expired token", "fields": {}}
STALE_ACCOUNT = {"message": "This account is not active. Please write to support.", "fields": {}}

# Refused while parsing the values the types let through (feed_params_of): a 400 before the caller's
# token is looked at, so a bad token still gets the 400. The message is the field's message.
PARSE_ERRORS: list[tuple[str, dict[str, str]]] = [
    ("categories=abc", {"categories": NUMBERS}),
    ("categories=1,x", {"categories": NUMBERS}),
    ("subcategories=1;2", {"subcategories": NUMBERS}),
    ("vendors=a", {"vendors": NUMBERS}),
    ("media_types=1.5", {"media_types": NUMBERS}),
    ("tags=%20,z", {"tags": NUMBERS}),
    ("categories=" + ",".join(str(number) for number in range(51)), {"categories": "At most 50 values"}),
    ("countries=FRA", {"countries": COUNTRY_CODES}),
    ("countries=F1", {"countries": COUNTRY_CODES}),
    ("countries=" + ",".join(["FR"] * 51), {"countries": "At most 50 values"}),
    ("leftX=1", {"leftX": "Map bounds need leftX, leftY, rightX and rightY together"}),
    ("leftX=1&leftY=50&rightX=2&rightY=40", {"leftY": "leftY (south) must not be above rightY (north)"}),
    ("leftX=200&leftY=1&rightX=2&rightY=3", {"leftX": "Must be between -180 and 180"}),
    ("leftX=1&leftY=-95&rightX=2&rightY=3", {"leftY": "Must be between -90 and 90"}),
    ("leftX=1&leftY=1&rightX=181&rightY=3", {"rightX": "Must be between -180 and 180"}),
    ("lat=1", {"lat": "Near Me needs both lat and lng"}),
    ("lng=2", {"lat": "Near Me needs both lat and lng"}),
]

# Refused by FeedQueryString's types: reported after the caller is checked (a bad token or a stale
# account is a 401 first), every failing field at once, the message naming the first.
TYPE_ERRORS: list[tuple[str, dict[str, str]]] = [
    ("limit=0", {"limit": "Input should be greater than or equal to 1"}),
    ("limit=101", {"limit": "Input should be less than or equal to 100"}),
    ("limit=abc", {"limit": NOT_AN_INTEGER}),
    ("offset=-1", {"offset": "Input should be greater than or equal to 0"}),
    ("offset=100001", {"offset": "Input should be less than or equal to 100000"}),
    ("offset=x", {"offset": NOT_AN_INTEGER}),
    ("sorting=best", {"sorting": SORTINGS}),
    ("mode=all", {"mode": MODES}),
    ("feed=everything", {"feed": FEEDS}),
    ("savesFollow=maybe", {"savesFollow": "Input should be a valid boolean, unable to interpret input"}),
    ("leftX=west", {"leftX": "Input should be a valid number, unable to parse string as a number"}),
    ("searchPattern=" + "x" * 201, {"searchPattern": "String should have at most 200 characters"}),
    ("seed=" + "s" * 65, {"seed": "String should have at most 64 characters"}),
    ("lat=91&lng=0", {"lat": "Input should be less than or equal to 90"}),
    ("lat=0&lng=-181", {"lng": "Input should be greater than or equal to -180"}),
    ("userid=me", {"userid": NOT_AN_INTEGER}),
    (
        "limit=abc&offset=-1&sorting=sideways&mode=all",
        {
            "sorting": SORTINGS,
            "mode": MODES,
            "limit": NOT_AN_INTEGER,
            "offset": "Input should be greater than or equal to 0",
        },
    ),
    # Both kinds: the parsing is never reached while the types refuse something.
    ("categories=abc&limit=0", {"limit": "Input should be greater than or equal to 1"}),
    ("countries=FRA&sorting=best", {"sorting": SORTINGS}),
]

# The index's result window (Elasticsearch refuses from + size beyond it): a type error on offset.
WINDOW = {"offset": f"offset + limit should be at most {MAX_RESULT_WINDOW}"}
RESULT_WINDOW_ERRORS: list[tuple[str, dict[str, str]]] = [
    ("offset=99990&limit=48", WINDOW),
    ("offset=99953", WINDOW),  # the default limit, 48
    ("offset=100000&limit=1", WINDOW),
    ("offset=99990&limit=0", {"limit": "Input should be greater than or equal to 1"}),
]


def type_error_body(fields: dict[str, str]) -> dict[str, Any]:
    first, message = next(iter(fields.items()))
    return {"message": f"{first}: {message}", "fields": fields}


@pytest.fixture
def callers(db: Session) -> dict[str, dict[str, str]]:
    viewer = factories.user(db)
    stale = factories.user(db)
    revoked = issue_user_token(user_id=stale.id, is_admin=False, roles=[], creator_id=None, token_version=99)
    db.commit()
    return {
        "nobody": {},
        "viewer": factories.bearer(viewer),
        "guest": {"Authorization": f"Bearer {issue_guest_token('guest-1')}"},
        "bad token": {"Authorization": "Bearer not-a-token"},
        "revoked token": {"Authorization": f"Bearer {revoked}"},
    }


@pytest.fixture
def paged_calls(db: Session) -> list[str]:
    """The feed, and the creator-scoped grid that FastAPI parses against the same FeedQueryString."""
    creator = factories.user(db)
    db.commit()
    return [GRID, f"/v2/user-recomendations/creator-media/{creator.id}"]


def answer(client: TestClient, path: str, query: str, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    response = client.get(f"{path}?{query}", headers=headers)
    body = response.json()
    body.pop("request_id", None)
    return response.status_code, body


@pytest.mark.parametrize(("query", "fields"), PARSE_ERRORS, ids=[query[:40] for query, _ in PARSE_ERRORS])
def test_parse_errors_are_400s_before_the_caller_is_checked(
    client: TestClient, callers: dict[str, dict[str, str]], paged_calls: list[str], query: str, fields: dict[str, str]
) -> None:
    (field, message) = next(iter(fields.items()))
    for path in paged_calls:
        for headers in callers.values():
            assert answer(client, path, query, headers) == (400, {"message": message, "fields": {field: message}})


@pytest.mark.parametrize(
    ("query", "fields"),
    TYPE_ERRORS + RESULT_WINDOW_ERRORS,
    ids=[query[:40] for query, _ in TYPE_ERRORS + RESULT_WINDOW_ERRORS],
)
def test_type_errors_are_400s_after_the_caller_is_checked(
    client: TestClient, callers: dict[str, dict[str, str]], paged_calls: list[str], query: str, fields: dict[str, str]
) -> None:
    for path in paged_calls:
        for name in ("nobody", "viewer", "guest"):
            assert answer(client, path, query, callers[name]) == (400, type_error_body(fields))
        assert answer(client, path, query, callers["bad token"]) == (401, BAD_TOKEN)
        assert answer(client, path, query, callers["revoked token"]) == (401, STALE_ACCOUNT)


def test_the_last_page_of_the_result_window_is_served(client: TestClient, paged_calls: list[str]) -> None:
    deepest = MAX_RESULT_WINDOW - 48
    for path in paged_calls:
        status, body = answer(client, path, f"offset={deepest}&limit=48", {})
        assert (status, body["offset"], body["data"]) == (200, deepest, [])


def test_a_restricted_platform_refuses_signed_out_callers_before_reading_the_query(
    client: TestClient, callers: dict[str, dict[str, str]], db: Session
) -> None:
    db.add(PlatformConfig(id=1, restrict_access=True, images_approval=False))
    db.commit()
    for query in ("", "categories=abc", "limit=0"):
        assert answer(client, GRID, query, callers["nobody"])[0] == 403
        assert answer(client, GRID, query, callers["guest"])[0] == 403
        assert answer(client, GRID, query, callers["bad token"]) == (401, BAD_TOKEN)
    assert answer(client, GRID, "categories=abc", callers["viewer"]) == (
        400,
        {"message": NUMBERS, "fields": {"categories": NUMBERS}},
    )
    assert answer(client, GRID, "limit=0", callers["viewer"])[0] == 400
    assert answer(client, GRID, "", callers["viewer"])[0] == 200


# ------------------------------------------------------------------ answers


@pytest.fixture
def world(db: Session) -> dict[str, dict[str, str]]:
    """Tours, creators and an ad: every kind of card, saved and followed ones among them."""
    catalog = factories.catalog(db)
    owners = [factories.user(db) for _ in range(3)]
    creators = [factories.creator(db, owner, creator_name=f"Créateur {index}") for index, owner in enumerate(owners)]
    viewer = factories.user(db)
    tours = [
        catalog.tour(db, owners[number % 3], title=f"Tour {number:02d} café", age_days=number * 3.5, views=number * 7)
        for number in range(30)
    ]
    db.add(TourSave(user_id=viewer.id, tour_id=tours[2].id))
    db.add(Follow(user_id=viewer.id, creator_id=creators[1].id))
    ad = Ad(
        user_id=owners[0].id,
        title="Sponsored",
        link="https://example.com/ad?a=1&b=2",
        preview_picture=None,
        status=TourStatus.active,
        approval_state=ApprovalState.approved,
    )
    db.add(ad)
    db.flush()
    outbox_topics.ad_changed(db, ad.id)
    db.commit()
    return {
        "nobody": {},
        "viewer": factories.bearer(viewer),
        "russian": {**factories.bearer(viewer), "Accept-Language": "ru-RU,ru;q=0.9"},
    }


def test_the_feed_answers_exactly_the_documented_grid_page(
    client: TestClient, world: dict[str, dict[str, str]]
) -> None:
    """The bytes are GridPage's own JSON of the same page: the cards are written without models, so
    a field out of order, of the wrong type, missing or extra would show here."""
    kinds: set[str] = set()
    for query in ("", "mode=media&sorting=views", "mode=both&limit=30", "mode=creators", "mode=both&offset=5&limit=7"):
        for headers in world.values():
            response = client.get(f"{GRID}?{query}", headers=headers)
            assert response.status_code == 200 and response.headers["content-type"] == "application/json"
            page = GridPage.model_validate_json(response.content)
            assert page.model_dump_json().encode() == response.content
            kinds |= {card.type for card in page.data}
    assert kinds == {"vt", "creator", "ad"}
    viewer_page = client.get(f"{GRID}?mode=both&limit=30&sorting=newest", headers=world["viewer"]).json()["data"]
    assert sum(card.get("is_save", False) for card in viewer_page) == 1
    assert sum(card.get("is_follow", False) for card in viewer_page) == 1
    russian = client.get(f"{GRID}?mode=media&sorting=newest&limit=1&offset=3", headers=world["russian"]).json()
    assert russian["data"][0]["created_ago"] == "1 неделю назад"  # 10.5 days: the largest unit


def test_one_route_answers_and_documents_the_feed(client: TestClient) -> None:
    routes = [route for route in discovery.recommendations_router.routes if getattr(route, "path", "") == GRID]
    assert [route.name for route in routes] == ["filtered_grid"]  # type: ignore[attr-defined]
    document = client.get("/openapi.json").json()
    operation = document["paths"][GRID]["get"]
    assert operation["operationId"] == "discovery-filtered_grid"
    names = [parameter["name"] for parameter in operation["parameters"]]
    assert names == [*FeedQueryString.model_fields, "accept-language"]
    assert set(operation["responses"]) == {"200", "400", "401", "403"}
    for reference in references(operation):
        assert reference.removeprefix("#/components/schemas/") in document["components"]["schemas"]


def references(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if "$ref" in node else []
        return own + [found for value in node.values() for found in references(value)]
    if isinstance(node, list):
        return [found for value in node for found in references(value)]
    return []


# ------------------------------------------------------------------ who is calling


def test_the_feed_refuses_every_stale_account_as_the_routes_that_load_the_user(client: TestClient, db: Session) -> None:
    """The feed checks its caller on one row of the account's switches (deps.signed_in_user), not on
    a loaded User (deps.get_current_user): each closed account must get the same 401 from both, and an
    open one must get through both."""
    open_account = factories.user(db)
    deleted = factories.user(db, is_deleted=True)
    drafted = factories.user(db, is_active=False)
    blocked = factories.user(db, user_active=False)
    signed_out = factories.user(db, token_version=3)
    db.commit()
    gone = issue_user_token(user_id=10**6, is_admin=False, roles=[], creator_id=None, token_version=0)
    old = issue_user_token(user_id=signed_out.id, is_admin=False, roles=[], creator_id=None, token_version=2)
    accounts = {
        "deleted": factories.bearer(deleted),
        "drafted": factories.bearer(drafted),
        "blocked": factories.bearer(blocked),
        "signed out": {"Authorization": f"Bearer {old}"},
        "gone": {"Authorization": f"Bearer {gone}"},
    }
    for name, headers in accounts.items():
        expected = answer(client, "/v2/users/", "", headers)
        assert expected[0] == 401, name
        assert answer(client, GRID, "", headers) == expected, name
        assert answer(client, GRID, "limit=abc", headers) == expected, name  # the type-error path checks it too
    assert answer(client, "/v2/users/", "", factories.bearer(open_account))[0] == 200
    assert answer(client, GRID, "", factories.bearer(open_account))[0] == 200
