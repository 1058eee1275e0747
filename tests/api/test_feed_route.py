"""The feed is answered by a route that validates its query string itself (app/discovery/router.py).
The route it shadows, which FastAPI parses and which documents the call, is the reference: every
request must get the same answer from both, byte for byte (cards built from pydantic models there,
written as plain JSON here) and error for error, in the same order of checks (restricted access,
the query, the token, the account)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import APIRouter, Depends, FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.ads.models import Ad
from app.core.deps import enforce_restricted_access
from app.core.errors import install_error_handlers
from app.core.outbox import add_outbox
from app.core.request_id import RequestIdMiddleware
from app.core.security import issue_guest_token, issue_user_token
from app.creators.models import Follow
from app.discovery import router as discovery
from app.discovery.schemas import GridPage
from app.engagement.models import TourSave
from app.platform.models import PlatformConfig
from app.tours.models import ApprovalState, TourStatus
from tests import factories

GRID = "/v2/user-recomendations/filtered-grid"
SAME_REQUEST_ID = {"x-request-id": "feed-route-parity"}

QUERIES = [
    "",
    "mode=media",
    "mode=media&sorting=views&limit=48",
    "mode=both&limit=7&offset=5",
    "mode=both&feed=popular&limit=12&offset=6",
    "mode=creators",
    "mode=media&sorting=random&seed=s&countries=fr,DE",
    "mode=media&sorting=newest&offset=3&limit=4",
    "mode=media&categories=1,2&media_types=1&vendors=1",
    "mode=media&searchPattern=%20walk%20",
    "mode=media&leftX=-10&leftY=40&rightX=20&rightY=60",
    "mode=media&sorting=near_me&lat=48.8&lng=2.3",
    "mode=media&savesFollow=true",
    "feed=saves_follows",
    "feed=for_you&mode=media",
    "mode=media&limit=5&limit=6&unknown=1&unknown=2",
    "mode=media&categories=",
    # refused by the types: reported after the token is checked
    "limit=1000",
    "limit=abc&offset=-1&sorting=sideways&mode=all",
    "savesFollow=maybe&lat=91",
    "searchPattern=" + "x" * 201,
    "seed=" + "s" * 65,
    "leftX=west",
    # refused by the parsing after the types: reported before the token is checked
    "categories=abc",
    "countries=FRA",
    "categories=" + ",".join(str(number) for number in range(51)),
    "lat=1",
    "leftX=1",
    "leftX=1&leftY=50&rightX=2&rightY=40",
    "leftX=200&leftY=1&rightX=2&rightY=3",
    # both: the parse error is never reached when the types refuse something
    "categories=abc&limit=0",
]


@pytest.fixture
def world(db: Session) -> dict[str, dict[str, str]]:
    """A few tours, creators and an ad; the callers the feed tells apart."""
    catalog = factories.catalog(db)
    owners = [factories.user(db) for _ in range(3)]
    creators = [factories.creator(db, owner, creator_name=f"Creator {index}") for index, owner in enumerate(owners)]
    viewer = factories.user(db, last_location={"center": [2.35, 48.85]})
    tours = [
        catalog.tour(
            db,
            owners[number % 3],
            title=f"Tour {number:02d} café",
            age_days=number * 3.5,
            views=number * 7,
            address_country=("FR", "DE", "JP")[number % 3],
            lat=48.0 + number,
            lng=2.0 + number,
        )
        for number in range(14)
    ]
    db.add(TourSave(user_id=viewer.id, tour_id=tours[2].id))
    db.add(Follow(user_id=viewer.id, creator_id=creators[1].id))
    ad = Ad(
        user_id=owners[0].id,
        title="Sponsored",
        link="https://example.com/ad",
        preview_picture=None,
        status=TourStatus.active,
        approval_state=ApprovalState.approved,
    )
    db.add(ad)
    db.flush()
    add_outbox(db, "index.ad", ad.id, {})
    stale = factories.user(db)
    revoked = issue_user_token(user_id=stale.id, is_admin=False, roles=[], creator_id=None, token_version=99)
    db.commit()
    return {
        "nobody": {},
        "viewer": factories.bearer(viewer),
        "owner": factories.bearer(owners[1]),
        "guest": {"Authorization": f"Bearer {issue_guest_token('guest-1')}"},
        "bad token": {"Authorization": "Bearer not-a-token"},
        "revoked token": {"Authorization": f"Bearer {revoked}"},
        "russian": {**factories.bearer(viewer), "Accept-Language": "ru-RU,ru;q=0.9"},
    }


def documented_app() -> FastAPI:
    """Only the declared route, parsed by FastAPI, behind the same guard and error handlers."""
    application = FastAPI()
    install_error_handlers(application)
    application.add_middleware(RequestIdMiddleware)
    declared = APIRouter(prefix="/v2/user-recomendations")
    declared.add_api_route("/filtered-grid", discovery.filtered_grid, response_model=GridPage, methods=["GET"])
    application.include_router(declared, dependencies=[Depends(enforce_restricted_access)])
    return application


@pytest.fixture
def documented(database: Any) -> Iterator[TestClient]:
    with TestClient(documented_app()) as test_client:
        yield test_client


def answers(client: TestClient, callers: dict[str, dict[str, str]]) -> list[tuple[str, str, int, bytes]]:
    found = []
    for query in QUERIES:
        for name, headers in callers.items():
            response = client.get(f"{GRID}?{query}", headers={**headers, **SAME_REQUEST_ID})
            found.append((query, name, response.status_code, response.content))
    return found


@pytest.fixture(autouse=True)
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """created_ago must not tick between the two runs."""
    now = datetime.now(UTC)

    class Frozen(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Frozen:  # type: ignore[override]
            return cls.fromtimestamp(now.timestamp(), tz)

    monkeypatch.setattr("app.discovery.service.datetime", Frozen)


def test_the_served_route_answers_as_the_documented_one(
    client: TestClient, documented: TestClient, world: dict[str, dict[str, str]]
) -> None:
    served, declared = answers(client, world), answers(documented, world)
    assert served == declared
    statuses = {status for _query, _name, status, _body in served}
    assert statuses == {200, 400, 401}  # the battery reaches every outcome


def test_and_alike_on_a_restricted_platform(
    client: TestClient, documented: TestClient, world: dict[str, dict[str, str]], db: Session
) -> None:
    db.add(PlatformConfig(id=1, restrict_access=True, images_approval=False))
    db.commit()
    served, declared = answers(client, world), answers(documented, world)
    assert served == declared
    assert {status for _query, name, status, _body in served if name in ("nobody", "guest")} == {403}


def test_the_served_route_is_the_one_that_answers(client: TestClient) -> None:
    # Declared first, it shadows the documented one; the OpenAPI document shows only the latter.
    names = [route.name for route in discovery.router.routes if getattr(route, "path", "") == GRID]
    assert names[:2] == ["filtered_grid_served", "filtered_grid"]
    operation = client.get("/openapi.json").json()["paths"][GRID]["get"]
    assert operation["operationId"] == "discovery-filtered_grid"
    assert len(operation["parameters"]) == 22
