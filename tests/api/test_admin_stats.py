"""The admins' statistics (issue 14 part 6): the admin-stats calls of users, tours, creators and vendors
take a range of UTC days (date_from, date_to; at most 366 days) and answer, beside their totals, a
daily series with every day of the range named (0 when nothing was created)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests import factories

CALLS = ("/v2/users/admin-stats", "/v2/virtualtours/admin-stats", "/v2/creators/admin-stats", "/v2/vendors/admin-stats")
EXISTING_KEYS = {
    "/v2/users/admin-stats": {"total", "active", "drafted", "new_last_7_days", "new_last_30_days"},
    "/v2/virtualtours/admin-stats": {"total", "listed", "pending", "added_today", "by_vendor", "by_category"},
    "/v2/creators/admin-stats": {"total", "active", "trusted", "pending_new", "followers"},
    "/v2/vendors/admin-stats": {"total", "by_status", "custom", "pending_requests", "tours_by_vendor"},
}


def at(day: date, hour: int = 12) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=UTC)


def stats(client: TestClient, admin: Any, path: str, **params: Any) -> dict[str, Any]:
    response = client.get(path, params=params, headers=factories.bearer(admin))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"] if "data" in response.json() else response.json()
    return data


def test_every_day_of_the_range_is_counted_and_named(client: TestClient, db: Session) -> None:
    day = date(2025, 3, 10)
    admin = factories.user(db, admin=True, created_at=at(day - timedelta(days=40)))
    owners = [factories.user(db, created_at=at(day, 1)), factories.user(db, created_at=at(day, 23))]
    owners.append(factories.user(db, created_at=at(day + timedelta(days=2))))
    category, media = factories.category(db, "Parks"), factories.media_type(db, "360")
    vendor = factories.vendor(db, "Kuula")
    vendor.created_at = at(day + timedelta(days=1))
    custom = factories.vendor(db, "Studio")
    custom.created_at = at(day - timedelta(days=1))  # before the range
    for index, owner in enumerate(owners):
        factories.creator(db, owner, created_at=at(day + timedelta(days=index)))
        tour = factories.tour(db, owner, category_row=category, media_type_row=media, vendor_row=vendor)
        tour.created_at = at(day + timedelta(days=2 * index))
    db.commit()
    window = {"date_from": day.isoformat(), "date_to": (day + timedelta(days=4)).isoformat()}
    expected = {
        "/v2/users/admin-stats": [2, 0, 1, 0, 0],
        "/v2/virtualtours/admin-stats": [1, 0, 1, 0, 1],
        "/v2/creators/admin-stats": [1, 1, 1, 0, 0],
        "/v2/vendors/admin-stats": [0, 1, 0, 0, 0],
    }
    for path, counts in expected.items():
        data = stats(client, admin, path, **window)
        assert EXISTING_KEYS[path] <= data.keys(), path
        daily = data["daily"]
        assert daily["date_from"] == window["date_from"] and daily["date_to"] == window["date_to"]
        assert daily["series"] == [
            {"date": (day + timedelta(days=offset)).isoformat(), "count": count} for offset, count in enumerate(counts)
        ], path
        assert daily["total"] == sum(counts)


def test_the_default_range_is_the_last_thirty_days(client: TestClient, db: Session) -> None:
    admin = factories.user(db, admin=True)
    db.commit()
    for path in CALLS:
        daily = stats(client, admin, path)["daily"]
        today = datetime.now(UTC).date()
        assert len(daily["series"]) == 30 and daily["date_to"] == today.isoformat()
        assert daily["date_from"] == (today - timedelta(days=29)).isoformat()
    assert stats(client, admin, "/v2/users/admin-stats")["daily"]["series"][-1]["count"] == 1  # the admin


@pytest.mark.parametrize("path", CALLS)
def test_a_bad_range_is_a_400_naming_the_field(client: TestClient, db: Session, path: str) -> None:
    admin = factories.user(db, admin=True)
    db.commit()
    for params, field in (
        ({"date_from": "2025-02-01", "date_to": "2025-01-31"}, "date_from"),
        ({"date_from": "2024-01-01", "date_to": "2025-01-01"}, "date_from"),  # 367 days
        ({"date_from": "yesterday"}, "date_from"),
        ({"date_to": "2025-13-01"}, "date_to"),
    ):
        response = client.get(path, params=params, headers=factories.bearer(admin))
        assert response.status_code == 400, (path, params)
        assert field in response.json()["fields"], response.json()
    full_year = {"date_from": "2024-01-01", "date_to": "2024-12-31"}  # 366 days: allowed
    assert len(stats(client, admin, path, **full_year)["daily"]["series"]) == 366
