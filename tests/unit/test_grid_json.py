"""The one card builder (service.card_payloads) writes media, creator and ad cards as plain dicts that
go to JSON without a pydantic model per card: the bytes must be exactly those the documented models
(GridPage and its cards) give for the same page, and the cards must carry the caller's flags."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic_core import to_json

from app.core.db import DirectRead
from app.discovery import service
from app.discovery.schemas import AdCard, CreatorCard, GridPage, ImgSettings, MediaCard, RankedBy

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
VIEWER_ID = 7


class FakeUser:
    id = VIEWER_ID


class FakeSession:
    """Answers the saved and followed lookups: every asked id in `saved` / `followed` is flagged."""

    def __init__(self, saved: set[int], followed: set[int]) -> None:
        self.saved, self.followed = saved, followed

    def answer(self, statement: DirectRead, params: dict[str, Any]) -> list[tuple[int]]:
        """The FixedInList statements: ids bound as in_0, in_1, … (padded with repeats)."""
        assert params["user_id"] == VIEWER_ID
        among = self.saved if statement in service._SAVED_AMONG._statements.values() else self.followed
        asked = {value for name, value in params.items() if name.startswith("in_")}
        return [(item,) for item in sorted(asked) if item in among]


@pytest.fixture(autouse=True)
def _fake_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The statements run against FakeSession (tests/api cover them on SQLite and PostgreSQL)."""
    monkeypatch.setattr(DirectRead, "rows", lambda statement, db, params: db.answer(statement, params))


def tour(tour_id: int, **changes: Any) -> dict[str, Any]:
    card = {
        "type": "vt",
        "id": tour_id,
        "guid": f"guid-{tour_id}",
        "title": f"Tour {tour_id}",
        "preview_picture": f"https://cdn.example.com/{tour_id}.jpg",
        "views": 1200 + tour_id,
        "saves": 3,
        "likes": 9,
        "shared": 1,
        "created_at": NOW.timestamp() - 86_400 * tour_id - 17.25,
        "media_type_id": 1,
        "userid": 40 + tour_id % 3,
    }
    return card | changes


PAYLOADS: list[dict[str, Any]] = [
    tour(1),
    tour(2, title='Café "Œuvre" \\ 東京 <b>&amp;</b>\n\t\u2028', preview_picture=None, userid=VIEWER_ID),
    # Counters folded in by the index's update_counters arrive as floats.
    tour(3, views=5021.0, saves=12.0, created_at=None),
    tour(4, created_at=NOW.timestamp() + 60),  # a clock ahead of ours: "in 0 seconds", not a negative age
    {
        "type": "creator",
        "id": 11,
        "creator_name": "Ана & Co",
        "platform_username": None,
        "logo": "https://cdn.example.com/logo.png",
        "img_settings": {"bgColor": "white"},
        "followers": 3,
        "vt_count": 2,
        "views": 10,
        "locations": [{"location": "Paris, FR"}, "Lyon"],
        "userid": 44,
    },
    {
        "type": "ad",
        "id": 5,
        "guid": "ad-5",
        "title": "Sponsored",
        "preview_picture": None,
        "link": "https://example.com/?a=1&b=2",
        "user_id": 9,
    },
    tour(5, views=0, saves=0),
]


def page_json(saved: set[int], followed: set[int], locale: str, user: Any = None) -> bytes:
    """What the feed writes for a page of PAYLOADS (service.grid_page, after the index read)."""
    cards = service.card_payloads(FakeSession(saved, followed), user, PAYLOADS, locale)  # type: ignore[arg-type]
    return to_json({"total_items": 1_000_000, "limit": 48, "offset": 96, "ranked_by": "popular", "data": cards})


def test_the_feed_json_is_byte_for_byte_the_documented_models_json(monkeypatch: Any) -> None:
    monkeypatch.setattr(service, "datetime", FrozenDatetime)
    for locale in ("en", "ru"):
        written = page_json({2, 5}, {11}, locale, FakeUser())
        # A field out of order, of another type (a float count, an int logoScale), missing or extra
        # would make GridPage's own JSON of the same page differ.
        assert GridPage.model_validate_json(written).model_dump_json().encode() == written


def test_the_cards_carry_the_callers_flags_and_age(monkeypatch: Any) -> None:
    monkeypatch.setattr(service, "datetime", FrozenDatetime)
    cards = GridPage.model_validate_json(page_json({2, 5}, {11}, "en", FakeUser())).data
    media = [card for card in cards if isinstance(card, MediaCard)]
    assert [(card.guid, card.is_save, card.is_owned) for card in media] == [
        ("guid-1", False, False),
        ("guid-2", True, True),
        ("guid-3", False, False),
        ("guid-4", False, False),
        ("guid-5", True, False),
    ]
    assert [card.created_ago for card in media] == [
        "1 day ago",
        "2 days ago",
        "56 years ago",
        "in 0 seconds",
        "5 days ago",
    ]
    assert (media[2].views, media[2].saves) == (5021, 12)
    creator = next(card for card in cards if isinstance(card, CreatorCard))
    assert creator.is_follow and creator.img_settings == ImgSettings(bgColor="white", logoScale=10)
    assert [item.location for item in creator.locations] == ["Paris, FR", "Lyon"]
    ad = next(card for card in cards if isinstance(card, AdCard))
    assert (ad.id, ad.link, ad.user_id) == (5, "https://example.com/?a=1&b=2", 9)
    # Signed out: nothing saved, owned or followed.
    anonymous = GridPage.model_validate_json(page_json({2, 5}, {11}, "ru")).data
    assert not any(getattr(card, flag, False) for card in anonymous for flag in ("is_save", "is_owned", "is_follow"))
    assert next(card.created_ago for card in anonymous if isinstance(card, MediaCard)) == "1 день назад"


def test_odd_creator_image_settings_still_make_a_valid_card() -> None:
    for stored in (None, [], {"bgColor": 3, "logoScale": "big"}, {"logoScale": True}):
        card = service.creator_payload({**PAYLOADS[4], "img_settings": stored}, followed=False)
        assert card["img_settings"] == {"bgColor": "black", "logoScale": 10.0}
        assert CreatorCard.model_validate(card).model_dump() == card


def test_shape_cards_gives_the_models_of_the_same_cards(monkeypatch: Any) -> None:
    monkeypatch.setattr(service, "datetime", FrozenDatetime)
    shaped = service.shape_cards(FakeSession({1}, {11}), FakeUser(), PAYLOADS, "en")  # type: ignore[arg-type]
    assert [type(card) for card in shaped] == [MediaCard] * 4 + [CreatorCard, AdCard, MediaCard]
    page = GridPage(total_items=1_000_000, limit=48, offset=96, ranked_by=RankedBy.popular, data=shaped)
    assert page.model_dump_json().encode() == page_json({1}, {11}, "en", FakeUser())


class FrozenDatetime(datetime):
    @classmethod
    def now(cls, tz: Any = None) -> FrozenDatetime:  # type: ignore[override]
        return cls.fromtimestamp(NOW.timestamp(), tz)
