"""Wire shapes of the engagement calls of spec §7 Media (player, tour-stats, post_view, post_likes,
post_saves, post_shares); names as spec §3 "Player parameters". `id` is always the tour guid."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.core.types import DbInt
from app.engagement.service import PlayerState, TourCounters

TourGuid = Field(min_length=1, max_length=64, description="The tour guid")


class TourCountersOut(BaseModel):
    id: str = Field(description="The tour guid")
    views: int
    likes: int
    shared: int
    saves: int

    @classmethod
    def of(cls, counters: TourCounters) -> TourCountersOut:
        return cls(
            id=counters.guid, views=counters.views, likes=counters.likes, shared=counters.shared, saves=counters.saves
        )


class PlayerParams(TourCountersOut):
    """Spec §3 "Player parameters"; the user flags are 0 for guests."""

    user_like: Literal[0, 1]
    user_save: Literal[0, 1]

    @classmethod
    def from_state(cls, state: PlayerState) -> PlayerParams:
        counters = TourCountersOut.of(state.counters).model_dump()
        return cls(**counters, user_like=1 if state.user_like else 0, user_save=1 if state.user_save else 0)


class TourIdBody(BaseModel):
    id: str = TourGuid


class ShareBody(TourIdBody):
    channel: str | None = Field(default=None, max_length=32, description="Where it was shared (link, facebook, …)")


class LikeBody(TourIdBody):
    likes: DbInt | None = Field(default=None, description="The client's count; ignored, the answer has the exact one")
    isLike: bool = Field(description="true to like, false to take the like back")  # noqa: N815 - wire name


class SaveBody(TourIdBody):
    saves: DbInt | None = Field(default=None, description="The client's count; ignored, the answer has the exact one")
    isSave: bool = Field(description="true to save, false to unsave")  # noqa: N815 - wire name


class LikeAnswer(TourCountersOut):
    isLike: bool  # noqa: N815 - wire name
    user_like: Literal[0, 1]


class SaveAnswer(TourCountersOut):
    isSave: bool  # noqa: N815 - wire name
    user_save: Literal[0, 1]


class ViewAnswer(TourCountersOut):
    counted: bool = Field(description="False when this viewer was already counted in the current window")
