"""What the outbox carries: one enum of topics and one typed helper per kind of change.

A service says what changed (`outbox_topics.tour_changed(db, tour.id)`), never which string the
worker reads. Each entry only names the aggregate: the worker reads the current rows when it runs,
so a change and a removal are the same entry (whatever is no longer listable leaves the index), and
many entries for one aggregate fold into one write.

Kept apart from app/core/outbox.py (the table and the claim machinery) so either can change alone.
"""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy.orm import Session

from app.core.outbox import OutboxEntry, add_outbox


class OutboxTopic(StrEnum):
    """The stored `outbox.topic` values (a StrEnum: equal to the plain strings already stored)."""

    tour = "index.tour"  # a tour's document: re-read, then written or removed
    tour_counters = "index.tour_counters"  # only a tour's counters and scores (folded into `tour`)
    creator = "index.creator"
    ad = "index.ad"
    tag = "index.tag"
    scores = "index.scores"  # every tour's time-dependent scores (aggregate 0: all of them)


# Every topic the index dispatch handles.
INDEX_TOPICS: tuple[OutboxTopic, ...] = tuple(OutboxTopic)

ALL_TOURS = 0


def tour_changed(session: Session, tour_id: int) -> OutboxEntry:
    """A tour was created, edited, published, hidden or deleted: its document follows."""
    return add_outbox(session, OutboxTopic.tour, tour_id, {})


def tour_counters_changed(session: Session, tour_id: int) -> OutboxEntry:
    """A tour's views, likes, saves or shares changed: a cheaper partial update."""
    return add_outbox(session, OutboxTopic.tour_counters, tour_id, {})


def creator_changed(session: Session, creator_id: int) -> OutboxEntry:
    """A creator profile was created, edited, followed or removed."""
    return add_outbox(session, OutboxTopic.creator, creator_id, {})


def ad_changed(session: Session, ad_id: int) -> OutboxEntry:
    return add_outbox(session, OutboxTopic.ad, ad_id, {})


def tag_changed(session: Session, tag_id: int) -> OutboxEntry:
    return add_outbox(session, OutboxTopic.tag, tag_id, {})


def all_scores_stale(session: Session) -> OutboxEntry:
    """Every tour's time-dependent scores (recency) need rewriting in the index."""
    return add_outbox(session, OutboxTopic.scores, ALL_TOURS, {})
