"""Issue 15 part 4: written events move the creator's open Analytics page, at most once a second per
creator: the first push goes at once, what follows within the interval goes together in one later push."""

from __future__ import annotations

import time

import pytest
from sqlalchemy.orm import Session

from app.analytics.live import get_pusher
from app.analytics.models import EventKind
from app.analytics.recorder import record
from app.analytics.service import record_tour_event
from app.realtime import events
from tests import factories
from tests.api.test_analytics import add_ad
from tests.api.test_engagement import RecordedEmits, cheap_passwords, record_emits


@pytest.fixture
def emits(monkeypatch: pytest.MonkeyPatch) -> RecordedEmits:
    cheap_passwords(monkeypatch)
    return record_emits(monkeypatch)


def test_pushes_are_throttled_per_creator_and_carry_the_increments(db: Session, emits: RecordedEmits) -> None:
    catalog = factories.catalog(db)
    owner, other = factories.user(db), factories.user(db)
    creator, other_creator = factories.creator(db, owner), factories.creator(db, other)
    tour = catalog.tour(db, owner, creator_id=creator.id)
    db.commit()
    pusher = get_pusher()
    assert pusher.interval == 1.0

    started = time.monotonic()
    record_tour_event(db, tour, EventKind.view)
    db.commit()
    pushed = emits.of(events.CREATOR_ANALYTICS, events.user_room(owner.id))
    assert len(pushed) == 1  # the first goes at once
    assert pushed[0]["recent"]["views"] == 1 and pushed[0]["creator_id"] == creator.id
    assert set(pushed[0]) == {"creator_id", "views", "likes", "saves", "shared", "followers", "recent"}

    for kind in (EventKind.like, EventKind.like, EventKind.save):
        record_tour_event(db, tour, kind)
        db.commit()
    record(db, EventKind.follow, creator_id=other_creator.id, user_id=owner.id)  # another creator: its own push
    db.commit()
    assert len(emits.of(events.CREATOR_ANALYTICS, events.user_room(owner.id))) == 1  # within the second: held
    assert len(emits.of(events.CREATOR_ANALYTICS, events.user_room(other.id))) == 1

    pusher.wait_idle()
    pushed = emits.of(events.CREATOR_ANALYTICS, events.user_room(owner.id))
    assert len(pushed) == 2
    assert time.monotonic() - started >= 0.9
    recent = pushed[1]["recent"]
    assert (recent["likes"], recent["saves"], recent["views"]) == (2, 1, 0)
    assert recent["tours"] == [{"tour_id": tour.id, "id": tour.guid, "views": 0, "likes": 2, "saves": 1, "shares": 0}]
    assert recent["since"] <= recent["until"]


def test_events_without_a_creator_push_nothing(db: Session, emits: RecordedEmits) -> None:
    catalog = factories.catalog(db)
    owner = factories.user(db)
    tour = catalog.tour(db, owner)
    db.commit()
    record_tour_event(db, tour, EventKind.view)
    db.commit()
    get_pusher().wait_idle()
    assert [name for name, _data, _room in emits.sent if name == events.CREATOR_ANALYTICS] == []


def test_ad_increments_carry_the_ads_guid(db: Session, emits: RecordedEmits) -> None:
    """The Ads Analytics table's rows are keyed by the ad's guid, so the push names it too."""
    owner = factories.user(db)
    creator = factories.creator(db, owner)
    ad = add_ad(db, owner, creator, "Spring sale")
    db.commit()
    record(db, EventKind.ad_impression, ad_id=ad.id, creator_id=creator.id)
    record(db, EventKind.ad_click, ad_id=ad.id, creator_id=creator.id)
    db.commit()
    get_pusher().wait_idle()
    recent = [payload["recent"] for payload in emits.of(events.CREATOR_ANALYTICS, events.user_room(owner.id))]
    ads = [row for part in recent for row in part["ads"]]
    assert {row["id"] for row in ads} == {ad.guid}
    assert sum(row["impressions"] for row in ads) == 1 and sum(row["clicks"] for row in ads) == 1
