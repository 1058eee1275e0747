"""The feed writes its cards to JSON without a pydantic model per media card: the bytes must be
exactly those the models give (GridPage.model_dump_json with the card models built field by field)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic_core import to_json

from app.discovery import service
from app.discovery.schemas import AdCard, CreatorCard, CreatorLocation, GridPage, ImgSettings, MediaCard

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
VIEWER_ID = 7


class FakeUser:
    id = VIEWER_ID


class FakeSession:
    """Answers the saved and followed lookups: every asked id in `saved` / `followed` is flagged."""

    def __init__(self, saved: set[int], followed: set[int]) -> None:
        self.saved, self.followed = saved, followed

    def scalars(self, statement: Any, params: dict[str, Any]) -> list[int]:
        assert params["user_id"] == VIEWER_ID
        among = self.saved if statement is service._SAVED_AMONG else self.followed
        return [item for item in params["ids"] if item in among]


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
    tour(4, created_at=NOW.timestamp() + 60),  # a clock ahead of ours: "0 seconds ago", not a negative age
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


def model_card(card: dict[str, Any], *, saved: set[int], followed: set[int], locale: str) -> Any:
    """A card as the feed built it before, model by model."""
    if card["type"] == "vt":
        created = datetime.fromtimestamp(float(card.get("created_at") or 0), UTC)
        return MediaCard(
            guid=card["guid"],
            title=card["title"],
            preview_picture=card.get("preview_picture"),
            views=card.get("views", 0),
            saves=card.get("saves", 0),
            is_save=card["id"] in saved,
            is_owned=card.get("userid") == VIEWER_ID,
            created_ago=service.created_ago(created, NOW, locale),
            media_type_id=card["media_type_id"],
            userid=card["userid"],
        )
    if card["type"] == "creator":
        settings = card["img_settings"]
        return CreatorCard(
            id=card["id"],
            creator_name=card["creator_name"],
            platform_username=card.get("platform_username"),
            logo=card.get("logo"),
            img_settings=ImgSettings(bgColor=settings.get("bgColor", "black"), logoScale=settings.get("logoScale", 10)),
            followers=card["followers"],
            vt_count=card["vt_count"],
            views=card["views"],
            is_follow=card["id"] in followed,
            locations=[CreatorLocation(location=service._location_text(item)) for item in card["locations"]],
            userid=card["userid"],
        )
    return AdCard(
        id=card["id"],
        title=card["title"],
        preview_picture=card.get("preview_picture"),
        link=card["link"],
        user_id=card["user_id"],
    )


def test_the_feed_json_is_byte_for_byte_the_models_json(monkeypatch: Any) -> None:
    monkeypatch.setattr(service, "datetime", FrozenDatetime)
    saved, followed = {2, 5}, {11}
    for locale in ("en", "ru"):
        fast = to_json(
            {
                "total_items": 1_000_000,
                "limit": 48,
                "offset": 96,
                "data": service.card_payloads(FakeSession(saved, followed), FakeUser(), PAYLOADS, locale),  # type: ignore[arg-type]
            }
        )
        models = GridPage(
            total_items=1_000_000,
            limit=48,
            offset=96,
            data=[model_card(card, saved=saved, followed=followed, locale=locale) for card in PAYLOADS],
        )
        assert fast == models.model_dump_json().encode()


def test_shape_cards_still_gives_models_equal_to_the_old_ones(monkeypatch: Any) -> None:
    monkeypatch.setattr(service, "datetime", FrozenDatetime)
    shaped = service.shape_cards(FakeSession({1}, set()), None, PAYLOADS, "en")  # type: ignore[arg-type]
    # Signed out: nothing saved, followed or owned.
    expected = [model_card(card, saved=set(), followed=set(), locale="en") for card in PAYLOADS]
    for card in expected:
        if isinstance(card, MediaCard):
            card.is_owned = False
    assert shaped == expected


class FrozenDatetime(datetime):
    @classmethod
    def now(cls, tz: Any = None) -> FrozenDatetime:  # type: ignore[override]
        return cls.fromtimestamp(NOW.timestamp(), tz)
