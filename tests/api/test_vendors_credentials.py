"""Spec §6 "vendor API credentials", §7 Vendors credentials and matterport-type: a creator connects
Matterport with a token id and secret, checked against Matterport's Model API (a local fake speaking
its GraphQL wire format), stored encrypted and never answered in full."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.classifications.dictionaries import WALKTHROUGH
from app.core.settings import get_settings
from app.users.models import User
from app.vendors import credentials
from app.vendors.models import Vendor, VendorCredential
from tests import factories
from tests.fakes.matterport import FakeMatterport, FakeModel, running_matterport

CREDENTIALS = "/v2/vendors/credentials"
MATTERPORT_TYPE = "/v2/vendors/matterport-type"
TOKEN_ID = "f4ke-t0ken-id-0001"
TOKEN_SECRET = "s3cret-v4lue-abcd-9876"
MODEL = FakeModel(id="SxQL3iGyoDo", name="Harbour loft", visibility="unlisted", state="active")


@pytest.fixture(scope="module")
def matterport() -> Iterator[FakeMatterport]:
    with running_matterport() as fake:
        yield fake


@dataclass
class Setup:
    creator: User
    other_creator: User
    user: User
    admin: User
    matterport: Vendor
    kuula: Vendor
    headers: dict[str, dict[str, str]]


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch, matterport: FakeMatterport) -> Iterator[Setup]:
    monkeypatch.setattr(get_settings(), "matterport_api_url", matterport.url)
    monkeypatch.setattr(get_settings(), "vendor_http_timeout_seconds", 3.0)
    matterport.accounts.clear()
    matterport.outage = False
    matterport.account(TOKEN_ID, TOKEN_SECRET, MODEL)
    reset_rate_limits()
    creator, other, user, admin = (
        factories.user(db),
        factories.user(db),
        factories.user(db),
        factories.user(db, admin=True),
    )
    profile, other_profile = factories.creator(db, creator), factories.creator(db, other)
    vendor = factories.vendor(db, "Matterport")
    kuula = factories.vendor(db, "Kuula")
    factories.media_type(db, WALKTHROUGH)
    db.commit()
    headers = {
        "creator": factories.bearer(creator, profile.id),
        "other": factories.bearer(other, other_profile.id),
        "user": factories.bearer(user),
        "admin": factories.bearer(admin),
    }
    yield Setup(creator, other, user, admin, vendor, kuula, headers)
    reset_rate_limits()


def connect(client: TestClient, s: Setup, who: str = "creator", **body: object) -> dict:
    payload = {"key": TOKEN_ID, "secret": TOKEN_SECRET, **body}
    response = client.post(CREDENTIALS, json=payload, headers=s.headers[who])
    return {"status": response.status_code, **response.json()}


def test_a_creator_connects_matterport_and_sees_only_masked_values(
    client: TestClient, db: Session, s: Setup, matterport: FakeMatterport
) -> None:
    answer = connect(client, s)
    assert answer["status"] == 200, answer
    assert answer["message"] == "Your Matterport account is connected"
    data = answer["data"]
    assert data["userid"] == s.creator.id and data["vendor"] == {"id": s.matterport.id, "name": "Matterport"}
    assert data["key"] == "••••0001" and data["secret"] == "••••9876"
    assert data["checked_at"] is not None
    # Matterport got the pair as HTTP Basic auth, with a GraphQL body.
    assert matterport.seen_auth[-1] == (TOKEN_ID, TOKEN_SECRET)
    assert "models(" in matterport.bodies[-1]["query"]

    listed = client.get(CREDENTIALS, headers=s.headers["creator"]).json()["data"]
    assert [(row["key"], row["secret"]) for row in listed] == [("••••0001", "••••9876")]
    assert TOKEN_ID not in str(listed) and TOKEN_SECRET not in str(listed)


def test_credentials_are_encrypted_at_rest(client: TestClient, db: Session, s: Setup) -> None:
    assert connect(client, s)["status"] == 200
    raw = db.execute(text("SELECT key_encrypted, secret_encrypted FROM vendor_credentials")).one()
    assert all(TOKEN_ID.encode() not in bytes(value) and TOKEN_SECRET.encode() not in bytes(value) for value in raw)
    stored = db.scalars(select(VendorCredential)).one()
    assert (stored.key(), stored.secret()) == (TOKEN_ID, TOKEN_SECRET)


def test_saving_again_replaces_the_pair(client: TestClient, db: Session, s: Setup, matterport: FakeMatterport) -> None:
    assert connect(client, s)["status"] == 200
    matterport.account("second-token-id-7777", "another-secret-5555")
    again = connect(client, s, key="second-token-id-7777", secret="another-secret-5555")
    assert again["status"] == 200 and again["message"] == "Your Matterport token has been replaced"
    rows = db.scalars(select(VendorCredential)).all()
    assert len(rows) == 1 and rows[0].key() == "second-token-id-7777"


def test_a_pair_matterport_refuses_is_a_400_naming_key_and_secret(client: TestClient, db: Session, s: Setup) -> None:
    answer = connect(client, s, secret="wrong-secret-0000")
    assert answer["status"] == 400
    assert answer["fields"] == {"key": credentials.REFUSED, "secret": credentials.REFUSED}
    assert db.scalars(select(VendorCredential)).all() == []


def test_matterport_unreachable_is_a_503_and_saves_nothing(
    client: TestClient, db: Session, s: Setup, matterport: FakeMatterport, monkeypatch: pytest.MonkeyPatch
) -> None:
    matterport.outage = True
    answer = connect(client, s)
    assert answer["status"] == 503 and answer["message"] == credentials.UNREACHABLE
    # Nothing listening at all: the same answer.
    matterport.outage = False
    monkeypatch.setattr(get_settings(), "matterport_api_url", "http://127.0.0.1:9/api/models/graph")
    answer = connect(client, s)
    assert answer["status"] == 503 and answer["message"] == credentials.UNREACHABLE
    assert db.scalars(select(VendorCredential)).all() == []


def test_empty_or_spaced_values_and_other_vendors_are_400s(client: TestClient, s: Setup) -> None:
    answer = connect(client, s, key="  ", secret="")
    assert answer["status"] == 400
    assert answer["fields"] == {"key": credentials.KEY_REQUIRED, "secret": credentials.SECRET_REQUIRED}
    assert connect(client, s, key="two words")["fields"] == {"key": credentials.NO_SPACES}
    answer = connect(client, s, vendor=s.kuula.id)
    assert answer["status"] == 400 and answer["fields"] == {"vendor": credentials.ONLY_CAPTURE_VENDOR}
    assert connect(client, s, key="k" * 201)["status"] == 400


def test_only_creators_and_only_their_own(client: TestClient, db: Session, s: Setup) -> None:
    assert connect(client, s, who="user")["status"] == 403
    assert connect(client, s)["status"] == 200
    # Another creator can neither read nor delete the first one's pair.
    other = client.get(CREDENTIALS, params={"userid": s.creator.id}, headers=s.headers["other"])
    assert other.status_code == 403
    assert client.get(CREDENTIALS, headers=s.headers["other"]).json()["data"] == []
    refused = client.delete(CREDENTIALS, params={"userid": s.creator.id}, headers=s.headers["other"])
    assert refused.status_code == 403
    # An admin sees it (masked) and may remove it.
    seen = client.get(CREDENTIALS, params={"userid": s.creator.id}, headers=s.headers["admin"]).json()["data"]
    assert [row["key"] for row in seen] == ["••••0001"]
    missing = client.get(CREDENTIALS, params={"userid": 987654}, headers=s.headers["admin"])
    assert missing.status_code == 404


def test_deleting_the_pair(client: TestClient, db: Session, s: Setup) -> None:
    assert client.delete(CREDENTIALS, headers=s.headers["creator"]).status_code == 404
    assert connect(client, s)["status"] == 200
    gone = client.delete(CREDENTIALS, params={"vendor": s.matterport.id}, headers=s.headers["creator"])
    assert gone.status_code == 200
    assert client.get(CREDENTIALS, headers=s.headers["creator"]).json()["data"] == []


def test_matterport_type_reads_the_model_with_the_saved_token(
    client: TestClient, db: Session, s: Setup, matterport: FakeMatterport
) -> None:
    def model_type(key: str) -> tuple[int, dict]:
        response = client.post(MATTERPORT_TYPE, json={"vendor_key": key}, headers=s.headers["creator"])
        return response.status_code, response.json()

    status, body = model_type(MODEL.id)
    assert status == 400 and body["fields"] == {"vendor_key": credentials.NO_CREDENTIALS}
    assert connect(client, s)["status"] == 200

    status, body = model_type(MODEL.id)
    assert status == 200, body
    data = body["data"]
    assert data["vendor_key"] == MODEL.id and data["name"] == "Harbour loft"
    assert (data["visibility"], data["state"], data["media_type"]) == ("unlisted", "active", WALKTHROUGH)
    assert matterport.bodies[-1]["variables"] == {"modelId": MODEL.id}
    # A link naming the model is read the same way.
    assert model_type(f"https://my.matterport.com/show/?m={MODEL.id}&play=1")[1]["data"]["name"] == "Harbour loft"

    status, body = model_type("NotAModel11")
    assert status == 400 and body["fields"] == {"vendor_key": credentials.MODEL_NOT_FOUND}
    status, body = model_type("not a model id")
    assert status == 400 and body["fields"] == {"vendor_key": credentials.MODEL_KEY_FORMAT}

    # The creator revoked the token at Matterport: the saved one is refused now.
    matterport.accounts.clear()
    status, body = model_type(MODEL.id)
    assert status == 400 and body["fields"] == {"vendor_key": credentials.STORED_REFUSED}
    matterport.outage = True
    status, body = model_type(MODEL.id)
    assert status == 503 and body["message"] == credentials.UNREACHABLE_LOOKUP


def test_the_basic_auth_header_is_the_token_pair(matterport: FakeMatterport) -> None:
    """The adapter speaks Matterport's auth: Basic base64(token id:secret), nothing in the URL."""
    from app.vendors.matterport import MatterportApi

    matterport.outage = False
    matterport.account("id-for-adapter", "secret-for-adapter")
    api = MatterportApi(matterport.url, timeout_s=3)
    try:
        api.check_credentials("id-for-adapter", "secret-for-adapter")
    finally:
        api.close()
    assert matterport.seen_auth[-1] == ("id-for-adapter", "secret-for-adapter")
    assert "secret-for-adapter" not in matterport.url


def test_masking_never_shows_more_than_a_third() -> None:
    assert credentials.mask("abc") == "••••"
    assert credentials.mask("abcdefghijk") == "••••"
    assert credentials.mask("abcdefghijkl") == "••••ijkl"
