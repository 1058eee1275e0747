"""Defect 4 (issue 12): response timestamps always carry a UTC offset, even when SQLite hands back naive ones."""

from datetime import UTC, datetime, timedelta, timezone

from pydantic import BaseModel

from app.core.timestamps import UtcDateTime, as_utc
from app.moderation.models import ApprovalKind
from app.moderation.schemas import PendingItemOut


class Stamped(BaseModel):
    at: UtcDateTime


def test_naive_datetimes_are_read_as_utc_and_written_with_an_offset() -> None:
    answer = Stamped(at=datetime(2026, 1, 2, 3, 4, 5)).model_dump(mode="json")
    assert answer == {"at": "2026-01-02T03:04:05Z"}


def test_aware_datetimes_are_converted_to_utc() -> None:
    paris_winter = timezone(timedelta(hours=1))
    assert as_utc(datetime(2026, 1, 2, 4, 0, tzinfo=paris_winter)) == datetime(2026, 1, 2, 3, 0, tzinfo=UTC)


def test_approval_items_answer_timestamps_with_an_offset() -> None:
    item = PendingItemOut.model_validate(
        {
            "id": 1,
            "kind": next(iter(ApprovalKind)),
            "entity_type": None,
            "entity_id": None,
            "userid": 2,
            "payload": {},
            "created_at": datetime(2026, 1, 2, 3, 4, 5),
            "summary": {"title": None, "username": None, "preview_picture": None, "link": None},
        }
    )
    assert item.model_dump(mode="json")["created_at"].endswith("Z")
