"""Wire shapes of spec §7 Releases: release notes (§3 "Release" wire names) and the Facebook post."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field

from app.core.types import DbId
from app.releases.models import ReleaseItemType

RELEASE_NAME_MAX = 255  # releases.name
VERSION_MAX = 32  # without its "Version " prefix: the number a page compares with its own build
ITEM_TITLE_MAX = 255  # release_items.title
ITEM_DESCRIPTION_MAX = 2000
ITEMS_PER_LIST_MAX = 50
TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d$"


class ReleaseItemIn(BaseModel):
    title: str = Field(max_length=ITEM_TITLE_MAX)
    description: str | None = Field(default=None, max_length=ITEM_DESCRIPTION_MAX)


class ReleaseItemOut(BaseModel):
    id: int
    title: str
    type: ReleaseItemType
    description: str | None


ItemList = list[ReleaseItemIn]


class ReleaseIn(BaseModel):
    """POST release-notes: a new release, or (with `id`) the new content of an existing one."""

    id: DbId | None = None
    releaseName: str = Field(max_length=RELEASE_NAME_MAX)  # noqa: N815 - wire name
    releaseVersion: str = Field(  # noqa: N815 - wire name
        max_length=VERSION_MAX + 8, description="'Version ' is prefixed when missing"
    )
    releaseDate: date  # noqa: N815 - wire name
    releaseTime: str | None = Field(default=None, pattern=TIME_PATTERN, description="HH:MM")  # noqa: N815
    listNewItems: ItemList = Field(default_factory=list, max_length=ITEMS_PER_LIST_MAX)  # noqa: N815
    listImprovedItems: ItemList = Field(default_factory=list, max_length=ITEMS_PER_LIST_MAX)  # noqa: N815
    listFixedItems: ItemList = Field(default_factory=list, max_length=ITEMS_PER_LIST_MAX)  # noqa: N815
    listComingSoonItems: ItemList = Field(default_factory=list, max_length=ITEMS_PER_LIST_MAX)  # noqa: N815
    announce: bool = Field(
        default=True, description="Tell every open page that a new version is out (when this is the newest release)"
    )


class ReleaseOut(BaseModel):
    id: int
    releaseName: str  # noqa: N815
    releaseVersion: str  # noqa: N815
    releaseDate: date  # noqa: N815
    releaseTime: str | None  # noqa: N815
    listNewItems: list[ReleaseItemOut]  # noqa: N815
    listImprovedItems: list[ReleaseItemOut]  # noqa: N815
    listFixedItems: list[ReleaseItemOut]  # noqa: N815
    listComingSoonItems: list[ReleaseItemOut]  # noqa: N815


class ReleasesAnswer(BaseModel):
    data: list[ReleaseOut]
    total_items: int
    limit: int
    offset: int


class ReleaseSaved(BaseModel):
    message: str
    data: ReleaseOut
    announced_version: str | None = Field(description="The version every open page was told about, if any")


class ReleaseDeleted(BaseModel):
    message: str
    release_id: int


SOCIAL_TEXT_MAX = 2000


class FacebookPostBody(BaseModel):
    release_name: str = Field(max_length=RELEASE_NAME_MAX)
    release_version: str = Field(max_length=VERSION_MAX + 8)
    release_date: date
    list_new: list[str] = Field(default_factory=list, max_length=ITEMS_PER_LIST_MAX)
    list_improved: list[str] = Field(default_factory=list, max_length=ITEMS_PER_LIST_MAX)
    list_fixed: list[str] = Field(default_factory=list, max_length=ITEMS_PER_LIST_MAX)
    list_coming_soon: list[str] = Field(default_factory=list, max_length=ITEMS_PER_LIST_MAX)


class FacebookPostAnswer(BaseModel):
    message: str
    post_id: str
