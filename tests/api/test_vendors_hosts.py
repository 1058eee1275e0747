"""Spec §2 "custom provider request" and "white-label host hint", §3 Custom provider, §4 the pending
items of new (alternative) custom providers and providers, §5 "Provider link heading and sample tour
must include {host}", §7 Vendors: POST and DELETE /, allowed-vendors, own-vendors, approval-items."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.auth.rate_limit import reset_rate_limits
from app.moderation.models import ApprovalItem, ApprovalStatus
from app.notifications.models import OutgoingMail
from app.tours import link_lookup, rules
from app.tours.link_lookup_router import get_fetcher
from app.vendors import hosts, service
from app.vendors.models import Vendor, VendorStatus
from app.vendors.router import get_host_resolver
from tests import factories
from tests.api.test_tours import Setup, build_setup
from tests.fakes.tour_pages import TourPages, running_tour_pages

VENDORS = "/v2/vendors/"
ITEMS = "/v2/vendors/approval-items"
HOST = "tours.studio.example"

# The names the tests' resolver knows; anything else does not resolve.
DNS: dict[str, list[str]] = {
    HOST: ["93.184.216.34"],
    "www.tours.studio.example": ["93.184.216.34"],
    "other.studio.example": ["93.184.216.35"],
    "inside.studio.example": ["93.184.216.36", "10.0.0.5"],  # one private answer is enough to refuse
    "loop.studio.example": ["127.0.0.1"],
}


def fake_resolver(host: str, port: int) -> list[link_lookup.IPAddress]:
    if host not in DNS:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    return [ipaddress.ip_address(address) for address in DNS[host]]


@pytest.fixture(scope="module")
def pages() -> Iterator[TourPages]:
    with running_tour_pages() as fake:
        yield fake


@pytest.fixture
def api(client: TestClient) -> Iterator[FastAPI]:
    app = client.app
    assert isinstance(app, FastAPI)
    app.dependency_overrides[get_host_resolver] = lambda: fake_resolver
    yield app
    app.dependency_overrides.clear()


@pytest.fixture
def s(db: Session, monkeypatch: pytest.MonkeyPatch, api: FastAPI) -> Iterator[Setup]:
    reset_rate_limits()
    yield build_setup(db, monkeypatch)
    reset_rate_limits()


def request_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "vendor_name": "Studio Tours",
        "host": HOST,
        "link_header": "https://{host}/tours/",
        "sample_tour": "https://{host}/tours/lobby",
    }
    body.update(overrides)
    return body


def ask(client: TestClient, s: Setup, person: Any = None, **overrides: Any) -> tuple[int, dict[str, Any]]:
    person = person or s.creator_user
    response = client.post(VENDORS, json=request_body(**overrides), headers=s.headers(person))
    return response.status_code, response.json()


def decide(client: TestClient, s: Setup, item_id: int, action: str, note: str | None = None) -> dict[str, Any]:
    response = client.put(
        ITEMS, json={"id": item_id, "action": action, "review_note": note}, headers=s.headers(s.admin)
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def mails_to(db: Session, address: str) -> list[OutgoingMail]:
    db.expire_all()
    return list(db.scalars(select(OutgoingMail).where(OutgoingMail.to_address == address).order_by(OutgoingMail.id)))


def pending_item(db: Session, vendor_id: int) -> ApprovalItem:
    db.expire_all()
    return db.scalars(
        select(ApprovalItem).where(ApprovalItem.entity_type == "vendor", ApprovalItem.entity_id == vendor_id)
    ).one()


def names(answer: dict[str, Any]) -> list[str]:
    return [row["vendor_name"] for row in answer["data"]]


# ------------------------------------------------------------------------------------------ request


def test_a_creator_asks_for_a_custom_host_and_the_admins_are_mailed(client: TestClient, db: Session, s: Setup) -> None:
    status, body = ask(client, s)
    assert status == 201, body
    assert body["message"] == "Your request has been sent: an administrator will review it"
    data = body["data"]
    assert (data["vendor_name"], data["host"], data["kind"], data["status"], data["is_custom"]) == (
        "Studio Tours",
        HOST,
        "new_custom_provider",
        "pending",
        True,
    )
    assert data["link_header"] == "https://{host}/tours/" and data["sample_tour"] == "https://{host}/tours/lobby"

    vendor = db.get(Vendor, data["vendor_id"])
    assert vendor is not None and vendor.status == VendorStatus.pending and vendor.owner_user_id == s.creator_user.id
    assert vendor.website == f"https://{HOST}" and vendor.link_header == f"https://{HOST}/tours/"

    [mail] = mails_to(db, s.admin.email)
    assert mail.subject == "New custom host request: Studio Tours"
    assert f"Host: {HOST}" in mail.body_text and "Sample tour: https://{host}/tours/lobby" in mail.body_text

    # The pending item is in the vendors' queue and in the cross-domain one.
    items = client.get(ITEMS, headers=s.headers(s.admin)).json()
    assert [(item["kind"], item["request"]["vendor_name"]) for item in items["data"]] == [
        ("new_custom_provider", "Studio Tours")
    ]
    assert items["data"][0]["userid"] == s.creator_user.id
    pending = client.get("/v2/pending/approval-items", headers=s.headers(s.admin)).json()
    assert pending["pending"]["new_custom_provider"] == 1

    # The owner sees it in own-vendors and may already choose it; nobody else sees it.
    own = client.get("/v2/vendors/own-vendors", headers=s.headers(s.creator_user)).json()
    assert [(row["vendor_name"], row["status"]) for row in own["data"]] == [("Studio Tours", "pending")]
    allowed = client.get("/v2/vendors/allowed-vendors", headers=s.headers(s.creator_user)).json()
    assert names(allowed) == ["Cupix", "Kuula", "Studio Tours"]
    assert allowed["data"][-1]["status"] == "pending" and allowed["data"][-1]["is_custom"] is True
    assert names(client.get("/v2/vendors/allowed-vendors", headers=s.headers(s.trusted_user)).json()) == [
        "Cupix",
        "Kuula",
    ]
    assert names(client.get(VENDORS).json()) == ["Cupix", "Kuula"]


def test_the_four_kinds_of_host_request(client: TestClient, db: Session, s: Setup) -> None:
    """Spec §4: new custom provider, new alternative custom provider, new provider, new alternative provider."""
    kinds = {}
    for name, extra in (
        ("Mine", {}),
        ("Mine Branded", {"parent_vendor_id": s.kuula.id, "alternate_version_name": "Kuula white label"}),
        ("For Everyone", {"is_custom": False}),
        ("Kuula Classic", {"is_custom": False, "parent_vendor_id": s.kuula.id}),
    ):
        status, body = ask(client, s, vendor_name=name, **extra)
        assert status == 201, body
        kinds[name] = body["data"]["kind"]
    assert kinds == {
        "Mine": "new_custom_provider",
        "Mine Branded": "new_alternative_custom_provider",
        "For Everyone": "new_provider",
        "Kuula Classic": "new_alternative_provider",
    }
    subjects = sorted(mail.subject for mail in mails_to(db, s.admin.email))
    assert subjects == [
        "New alternative custom host request: Mine Branded",
        "New alternative host suggestion: Kuula Classic",
        "New custom host request: Mine",
        "New host suggestion: For Everyone",
    ]
    only_new_providers = client.get(ITEMS, params={"kind": "new_provider"}, headers=s.headers(s.admin)).json()
    assert [item["request"]["vendor_name"] for item in only_new_providers["data"]] == ["For Everyone"]
    # A version of a host takes its group and its picture rule.
    branded = db.scalars(select(Vendor).where(Vendor.name == "Mine Branded")).one()
    assert branded.parent_vendor_id == s.kuula.id


@pytest.mark.parametrize(
    ("overrides", "fields"),
    [
        ({"link_header": "https://tours.studio.example/tours/"}, {"link_header": hosts.MUST_INCLUDE_HOST}),
        ({"sample_tour": "https://tours.studio.example/t/1"}, {"sample_tour": hosts.MUST_INCLUDE_HOST}),
        (
            {"link_header": "/tours/", "sample_tour": "tours/{host}"},
            {"link_header": hosts.MUST_INCLUDE_HOST, "sample_tour": hosts.LINK_NOT_WEB},
        ),
        ({"sample_tour": "ftp://{host}/tours/lobby"}, {"sample_tour": hosts.LINK_NOT_WEB}),
        ({"sample_tour": "https://{host}.evil.example/tours/x"}, {"sample_tour": hosts.LINK_OTHER_HOST}),
        ({"sample_tour": "https://evil.example/?{host}"}, {"sample_tour": hosts.LINK_OTHER_HOST}),
        ({"sample_tour": "https://user@{host}/tours/x"}, {"sample_tour": hosts.LINK_NOT_WEB}),
        ({"sample_tour": "https://{host}/gallery/lobby"}, {"sample_tour": hosts.SAMPLE_NOT_UNDER_HEADING}),
        ({"host": ""}, {"host": hosts.HOST_REQUIRED}),
        ({"host": "https://tours.studio.example"}, {"host": hosts.HOST_INVALID}),
        ({"host": "tours.studio.example:8443"}, {"host": hosts.HOST_INVALID}),
        ({"host": "tours..example"}, {"host": hosts.HOST_INVALID}),
        ({"host": "-tours.example"}, {"host": hosts.HOST_INVALID}),
        ({"host": "studio"}, {"host": hosts.HOST_INVALID}),
        ({"host": "10.0.0.5"}, {"host": hosts.HOST_IP_LITERAL}),
        ({"host": "[::1]"}, {"host": hosts.HOST_IP_LITERAL}),
        ({"host": "localhost"}, {"host": hosts.HOST_INVALID}),
        ({"host": "printer.local"}, {"host": hosts.HOST_LOCAL}),
        ({"host": "db.internal"}, {"host": hosts.HOST_LOCAL}),
        ({"host": "inside.studio.example"}, {"host": hosts.HOST_PRIVATE}),
        ({"host": "loop.studio.example"}, {"host": hosts.HOST_PRIVATE}),
        ({"host": "nowhere.studio.example"}, {"host": hosts.HOST_NOT_FOUND}),
        ({"vendor_name": "  "}, {"vendor_name": service.NAME_REQUIRED}),
        ({"vendor_name": "Shit Tours"}, {"vendor_name": service.INVALID_NAME}),
        ({"parent_vendor_id": 987654}, {"parent_vendor_id": service.UNKNOWN_PARENT}),
        ({"alternate_version_name": "Branded"}, {"parent_vendor_id": service.PARENT_NEEDED}),
    ],
)
def test_the_request_rules(
    client: TestClient, db: Session, s: Setup, overrides: dict[str, Any], fields: dict[str, str]
) -> None:
    status, body = ask(client, s, **overrides)
    assert (status, body["fields"]) == (400, fields)
    assert db.scalars(select(Vendor).where(Vendor.name == "Studio Tours")).all() == []
    assert mails_to(db, s.admin.email) == []


def test_a_host_name_is_read_in_lower_case_and_punycode(client: TestClient, db: Session, s: Setup) -> None:
    DNS["xn--tr-xka.studio.example"] = ["93.184.216.40"]
    try:
        status, body = ask(client, s, host="TÜR.Studio.Example.", vendor_name="Tür")
        assert status == 201, body
        assert body["data"]["host"] == "xn--tr-xka.studio.example"
    finally:
        del DNS["xn--tr-xka.studio.example"]


def test_a_taken_name_is_a_409_and_only_creators_may_ask(client: TestClient, s: Setup) -> None:
    status, body = ask(client, s, vendor_name="kuula")
    assert (status, body["fields"]) == (409, {"vendor_name": service.NAME_TAKEN})
    status, _body = ask(client, s, person=s.user)
    assert status == 403


def test_an_admin_creates_a_host_at_once(client: TestClient, db: Session, s: Setup) -> None:
    status, body = ask(client, s, person=s.admin, vendor_name="Panorama Cloud", is_custom=False, group_name="Panoramas")
    assert status == 200 and body["message"] == "The host has been created"
    assert body["data"]["status"] == "approved"
    assert "Panorama Cloud" in names(client.get(VENDORS).json())
    assert client.get(ITEMS, headers=s.headers(s.admin)).json()["data"] == []
    assert mails_to(db, s.admin.email) == []


# ----------------------------------------------------------------------------------------- decision


def test_approving_a_custom_host_makes_its_links_match_it(
    client: TestClient, db: Session, s: Setup, pages: TourPages, api: FastAPI
) -> None:
    _status, body = ask(client, s, person=s.trusted_user)
    vendor_id = body["data"]["vendor_id"]
    item = pending_item(db, vendor_id)
    decided = decide(client, s, item.id, "approve", note="Welcome")
    assert decided["message"] == "Approved" and decided["data"]["status"] == "approved"
    assert decided["data"]["request"]["status"] == "approved" and decided["data"]["review_note"] == "Welcome"
    [mail] = mails_to(db, s.trusted_user.email)
    assert mail.subject == "Your host Studio Tours is approved" and "Welcome" in mail.body_text

    vendor = db.get(Vendor, vendor_id)
    assert vendor is not None and vendor.is_white_label and vendor.is_custom
    # Its owner adds tours from it: links under the heading, with or without www., http or https.
    for number, link in enumerate(
        (f"https://{HOST}/tours/lobby", f"http://www.{HOST}/tours/roof?x=1", f"https://{HOST}:8443/tours/cellar")
    ):
        payload: dict[str, Any] = {"vendor": vendor_id, "link": link, "preview_picture": None}
        response = client.post(
            "/v2/virtualtours/",
            json=s.payload(**payload, title=f"Studio tour {number}"),
            headers=s.headers(s.trusted_user),
        )
        assert response.status_code == 201, (link, response.text)
    # Not under the heading, on another host, or a host name that merely begins like it: refused.
    for link in (
        f"https://{HOST}/gallery/1",
        "https://other.studio.example/tours/1",
        f"https://{HOST}.evil.example/tours/1",
    ):
        response = client.post(
            "/v2/virtualtours/", json=s.payload(vendor=vendor_id, link=link), headers=s.headers(s.trusted_user)
        )
        assert (response.status_code, response.json()["fields"]) == (400, {"link": rules.LINK_FORMAT}), link
    # Another user may not use someone's custom host... (it is not listed for them either)
    other = client.post(
        "/v2/virtualtours/",
        json=s.payload(vendor=vendor_id, link=f"https://{HOST}/tours/x"),
        headers=s.headers(s.creator_user),
    )
    assert other.status_code == 400 and other.json()["fields"] == {"vendor": rules.UNKNOWN_HOST}


def test_the_white_label_hint_names_the_callers_own_host(
    client: TestClient, db: Session, s: Setup, pages: TourPages, api: FastAPI
) -> None:
    """GET discover answers `host` when the link is on one of the caller's own hosts, and refuses a
    link on it looked up under another host with that host's name."""
    port = int(pages.base_url.rsplit(":", 1)[1])
    dns_local = {HOST: [ipaddress.ip_address("127.0.0.1")]}

    def local(host: str, _port: int) -> list[link_lookup.IPAddress]:
        return dns_local[host]

    api.dependency_overrides[get_fetcher] = lambda: link_lookup.SafeFetcher(
        policy=link_lookup.AddressPolicy.from_settings(["127.0.0.1/32"]), resolver=local
    )
    _status, body = ask(client, s, link_header="http://{host}/tours/", sample_tour="http://{host}/tours/louvre")
    vendor_id = body["data"]["vendor_id"]
    decide(client, s, pending_item(db, vendor_id).id, "approve")

    link = f"http://{HOST}:{port}/tours/louvre"
    found = client.get(
        "/v2/virtualtours/discover",
        params={"url": link, "vendor_name": "Studio Tours"},
        headers=s.headers(s.creator_user),
    )
    assert found.status_code == 200, found.text
    data = found.json()["data"]
    assert data["OpenGraph"]["title"].startswith("Louvre Museum")
    assert data["host"] == {
        "vendor_id": vendor_id,
        "vendor_name": "Studio Tours",
        "is_white_label": True,
        "status": "approved",
    }

    # Without a host chosen, the hint tells the form which one it is.
    unchosen = client.get("/v2/virtualtours/discover", params={"url": link}, headers=s.headers(s.creator_user))
    assert unchosen.json()["data"]["host"]["vendor_id"] == vendor_id
    # Looked up under another host: refused, naming the caller's own host.
    refused = client.get(
        "/v2/virtualtours/discover", params={"url": link, "vendor_name": "Kuula"}, headers=s.headers(s.creator_user)
    )
    assert refused.status_code == 400
    assert refused.json()["fields"] == {"url": link_lookup.OWN_HOST_LINK.format(host="Studio Tours")}
    # Someone else's link on that host is no hint for them.
    theirs = client.get("/v2/virtualtours/discover", params={"url": link}, headers=s.headers(s.trusted_user))
    assert theirs.status_code == 200 and theirs.json()["data"]["host"] is None


def test_rejecting_keeps_the_host_out_of_use(client: TestClient, db: Session, s: Setup) -> None:
    _status, body = ask(client, s)
    vendor_id = body["data"]["vendor_id"]
    decided = decide(client, s, pending_item(db, vendor_id).id, "reject", note="Not a tour host")
    assert decided["message"] == "Rejected" and decided["data"]["request"]["status"] == "rejected"
    [mail] = mails_to(db, s.creator_user.email)
    assert mail.subject == "Your host Studio Tours was not approved" and "Not a tour host" in mail.body_text
    assert "Studio Tours" not in names(
        client.get("/v2/vendors/allowed-vendors", headers=s.headers(s.creator_user)).json()
    )
    own = client.get("/v2/vendors/own-vendors", headers=s.headers(s.creator_user)).json()["data"]
    assert [row["status"] for row in own] == ["rejected"]
    refused = client.post(
        "/v2/virtualtours/",
        json=s.payload(vendor=vendor_id, link=f"https://{HOST}/tours/x"),
        headers=s.headers(s.creator_user),
    )
    assert refused.json()["fields"] == {"vendor": rules.UNKNOWN_HOST}


def test_a_decision_is_made_once_and_only_on_host_items(client: TestClient, db: Session, s: Setup) -> None:
    _status, body = ask(client, s)
    item = pending_item(db, body["data"]["vendor_id"])
    decide(client, s, item.id, "approve")
    again = client.put(ITEMS, json={"id": item.id, "action": "reject"}, headers=s.headers(s.admin))
    assert again.status_code == 409
    missing = client.put(ITEMS, json={"id": 987654, "action": "approve"}, headers=s.headers(s.admin))
    assert missing.status_code == 404
    # A users' item is not decided here.
    factories.user(db)
    user_item = ApprovalItem(kind="new_user", entity_type="user", entity_id=s.user.id, payload={})
    db.add(user_item)
    db.commit()
    assert (
        client.put(ITEMS, json={"id": user_item.id, "action": "approve"}, headers=s.headers(s.admin)).status_code == 404
    )
    assert client.get(ITEMS, headers=s.headers(s.creator_user)).status_code == 403
    decided = client.get(ITEMS, params={"status": "approved"}, headers=s.headers(s.admin)).json()
    assert [entry["id"] for entry in decided["data"]] == [item.id] and decided["total_items"] == 1


def test_approving_a_host_for_everyone_tells_its_groups_subscribers(client: TestClient, db: Session, s: Setup) -> None:
    s.kuula.group_name = "Panoramas"
    db.commit()
    joined = client.post("/v2/vendors/group-subscribers", json={"group_name": "Panoramas"}, headers=s.headers(s.user))
    assert joined.status_code == 200 and joined.json()["message"] == "You follow Panoramas"
    _status, body = ask(client, s, vendor_name="Kuula Classic", is_custom=False, parent_vendor_id=s.kuula.id)
    assert body["data"]["kind"] == "new_alternative_provider"
    assert mails_to(db, s.user.email) == []  # not before it is approved
    decide(client, s, pending_item(db, body["data"]["vendor_id"]).id, "approve")
    [mail] = mails_to(db, s.user.email)
    assert mail.subject == "New on TourAtlas: Kuula Classic (Panoramas)"
    assert "Kuula Classic" in names(client.get(VENDORS).json())
    # A custom host is its owner's alone: nobody is told.
    _status, body = ask(client, s, vendor_name="Mine", parent_vendor_id=s.kuula.id)
    decide(client, s, pending_item(db, body["data"]["vendor_id"]).id, "approve")
    assert len(mails_to(db, s.user.email)) == 1


# ------------------------------------------------------------------------------------------ delete


def test_deleting_a_host(client: TestClient, db: Session, s: Setup) -> None:
    _status, body = ask(client, s)
    vendor_id = body["data"]["vendor_id"]
    assert client.delete(VENDORS, params={"vendor_id": vendor_id}, headers=s.headers(s.trusted_user)).status_code == 403
    assert (
        client.delete(VENDORS, params={"vendor_id": s.kuula.id}, headers=s.headers(s.creator_user)).status_code == 403
    )
    assert client.delete(VENDORS, params={"vendor_id": 987654}, headers=s.headers(s.creator_user)).status_code == 404
    # A tour on it keeps it.
    tour = factories.tour(
        db, s.creator_user, category_row=s.parks, media_type_row=s.panorama, vendor_row=db.get(Vendor, vendor_id)
    )
    db.commit()
    busy = client.delete(VENDORS, params={"vendor_id": vendor_id}, headers=s.headers(s.creator_user))
    assert busy.status_code == 409 and busy.json()["message"] == service.HAS_TOURS.format(count=1)
    db.delete(tour)
    db.commit()
    gone = client.delete(VENDORS, params={"vendor_id": vendor_id}, headers=s.headers(s.creator_user))
    assert gone.status_code == 200 and gone.json() == {"message": "The host has been deleted", "vendor_id": vendor_id}
    db.expire_all()
    assert db.get(Vendor, vendor_id) is None
    # The waiting request is withdrawn; own-vendors keeps the record of it.
    item = pending_item(db, vendor_id)
    assert item.status == ApprovalStatus.rejected and item.review_note == service.WITHDRAWN
    own = client.get("/v2/vendors/own-vendors", headers=s.headers(s.creator_user)).json()["data"]
    assert [(row["vendor_id"], row["status"]) for row in own] == [(None, "rejected")]
    assert client.get(ITEMS, headers=s.headers(s.admin)).json()["data"] == []
    # An admin deletes any host without tours; the name is free again.
    assert client.delete(VENDORS, params={"vendor_id": s.cupix.id}, headers=s.headers(s.admin)).status_code == 200
    assert ask(client, s)[0] == 201
