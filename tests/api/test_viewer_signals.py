"""app/discovery/signals.py reads in one statement what the feed used to read in six: the tours of
the taste vector, the interest categories and the tags the Sponsored cards are matched on. Each part
must be what its own query gives (the queries below are those six, as they were written before)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications.models import Tag, TagTopicType
from app.core.db import utcnow
from app.discovery import signals
from app.engagement.models import TourLike, TourSave
from app.tours.models import TourTag
from app.users.models import User, UserInterest
from tests import factories


def reference(db: Session, user: User) -> signals.ViewerSignals:
    taste: set[int] = set()
    tags: set[int] = set()
    for model in (TourLike, TourSave):
        latest = select(model.tour_id).where(model.user_id == user.id).order_by(model.created_at.desc())
        taste.update(db.scalars(latest.limit(signals.TASTE_ENGAGEMENTS)))
        recent = latest.limit(signals.RECENT_ENGAGEMENTS).scalar_subquery()
        tags.update(db.scalars(select(TourTag.tag_id).where(TourTag.tour_id.in_(recent))))
    interests = tuple(db.scalars(select(UserInterest.category_id).where(UserInterest.user_id == user.id)))
    if interests:
        topic_tags = select(Tag.id).where(
            Tag.topic_type == TagTopicType.category, Tag.topic_id.in_(interests), Tag.is_active.is_(True)
        )
        tags.update(db.scalars(topic_tags))
    return signals.ViewerSignals(taste_tours=frozenset(taste), interests=interests, tag_ids=frozenset(tags))


def test_one_statement_reads_what_the_six_queries_read(db: Session) -> None:
    owner, viewer, somebody = factories.user(db), factories.user(db), factories.user(db)
    catalog = factories.catalog(db)
    liked_topic, saved_topic = factories.category(db, "Liked topic"), factories.category(db, "Saved topic")
    interest, other_interest, not_mine = (factories.category(db, name) for name in ("Art", "Food", "Cars"))
    liked_tag, saved_tag, both_tag = (factories.tag(db, name, liked_topic) for name in ("hike", "sail", "sun"))
    art_tag, food_tag, car_tag = (
        factories.tag(db, name, topic)
        for name, topic in (("painting", interest), ("bread", other_interest), ("engines", not_mine))
    )
    retired = factories.tag(db, "retired", interest)
    retired.is_active = False
    factories.tag(db, "unseen", saved_topic)  # nobody's: tagged on no engaged tour, no interest's topic
    liked = [catalog.tour(db, owner, tags=(liked_tag, both_tag)) for _ in range(3)]
    saved = [catalog.tour(db, owner, tags=(saved_tag, both_tag)) for _ in range(2)]
    theirs = catalog.tour(db, owner, tags=(car_tag,))
    now = utcnow()
    for age, tour in enumerate(liked):
        db.add(TourLike(user_id=viewer.id, tour_id=tour.id, created_at=now - timedelta(minutes=age)))
    for age, tour in enumerate(saved):
        db.add(TourSave(user_id=viewer.id, tour_id=tour.id, created_at=now - timedelta(minutes=age)))
    db.add(TourLike(user_id=somebody.id, tour_id=theirs.id))
    db.add(UserInterest(user_id=viewer.id, category_id=interest.id, position=0))
    db.add(UserInterest(user_id=viewer.id, category_id=other_interest.id, position=1))
    db.add(UserInterest(user_id=somebody.id, category_id=not_mine.id, position=0))
    db.commit()

    read = signals.viewer_signals(db, viewer.id)
    assert read == reference(db, viewer)
    assert read.taste_tours == {tour.id for tour in liked + saved}
    assert sorted(read.interests) == sorted((interest.id, other_interest.id))
    assert read.tag_ids == {liked_tag.id, saved_tag.id, both_tag.id, art_tag.id, food_tag.id}
    assert retired.id not in read.tag_ids
    assert signals.viewer_signals(db, factories.user(db).id) == signals.ViewerSignals(frozenset(), (), frozenset())


def test_the_ad_taste_is_kept_for_its_ttl_per_viewer() -> None:
    now = [100.0]
    cache = signals.AdTasteCache(ttl=30, size=2, clock=lambda: now[0])
    reads: list[int] = []

    def read(user_id: int, tag: int) -> signals.AdTaste:
        reads.append(user_id)
        return signals.AdTaste(tag_ids=frozenset({tag}), vector=None)

    assert cache.taste(1, lambda: read(1, 10)).tag_ids == {10}
    assert cache.taste(1, lambda: read(1, 11)).tag_ids == {10}  # kept
    assert cache.taste(2, lambda: read(2, 20)).tag_ids == {20}  # another viewer: read
    now[0] += 30
    assert cache.taste(1, lambda: read(1, 12)).tag_ids == {12}  # expired: read again, into an emptied cache
    assert cache.taste(3, lambda: read(3, 30)).tag_ids == {30}
    assert cache.taste(2, lambda: read(2, 21)).tag_ids == {21}  # dropped when the full cache was emptied
    assert reads == [1, 2, 1, 3, 2]
