"""Wire shapes of spec §7 Support: bug reports, their screenshots, feature requests, contact support
and the help tool's configuration."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from app.core.types import DbId
from app.support.models import BugReportStatus, FeatureRequestStatus

TITLE_MAX = 255  # bug_reports.title, feature_requests.title
DESCRIPTION_MAX = 4000
PAGE_URL_MAX = 2048  # bug_reports.page_url
IMAGES_PER_REPORT_MAX = 5
IMAGE_PATH_MAX = 1024  # bug_report_images.path
SUPPORT_MESSAGE_MAX = 4000


class BugReportBody(BaseModel):
    title: str = Field(max_length=TITLE_MAX)
    description: str = Field(max_length=DESCRIPTION_MAX)
    page_url: str | None = Field(default=None, max_length=PAGE_URL_MAX, description="The page the bug was seen on")
    images: list[str] = Field(
        default_factory=list,
        max_length=IMAGES_PER_REPORT_MAX,
        description="Paths answered by POST /v2/users/bug-image",
    )


class BugReportStatusBody(BaseModel):
    id: DbId
    status: BugReportStatus


class BugImageOut(BaseModel):
    path: str
    content_type: str


class BugReportOut(BaseModel):
    id: int
    userid: int | None
    username: str | None
    title: str
    description: str | None
    page_url: str | None
    user_agent: str | None
    status: BugReportStatus
    images: list[BugImageOut]
    created_at: datetime


class BugReportsAnswer(BaseModel):
    data: list[BugReportOut]
    total_items: int
    limit: int
    offset: int
    known_bugs_url: str = Field(description="The known-bugs page the bug form links to; empty: none configured")


class BugReportSaved(BaseModel):
    message: str
    data: BugReportOut


class BugImageLookup(BaseModel):
    path: str
    content_type: str
    message: str


class FeatureRequestBody(BaseModel):
    title: str = Field(max_length=TITLE_MAX)
    description: str | None = Field(default=None, max_length=DESCRIPTION_MAX)


class FeatureRequestStatusBody(BaseModel):
    id: DbId
    status: FeatureRequestStatus


class FeatureRequestOut(BaseModel):
    id: int
    userid: int | None
    username: str | None
    title: str
    description: str | None
    status: FeatureRequestStatus
    created_at: datetime


class FeatureRequestsAnswer(BaseModel):
    data: list[FeatureRequestOut]
    total_items: int
    limit: int
    offset: int


class FeatureRequestSaved(BaseModel):
    message: str
    data: FeatureRequestOut


class ContactSupportBody(BaseModel):
    name: str = Field(max_length=100)
    email: str = Field(max_length=320, description="Where support answers")
    subject: str | None = Field(default=None, max_length=150)
    message: str = Field(max_length=SUPPORT_MESSAGE_MAX)


class ContactSupportAnswer(BaseModel):
    message: str
    id: int


class TutorialVideoOut(BaseModel):
    title: str
    url: str


class HelpConfig(BaseModel):
    known_bugs_url: str
    tutorial_videos: list[TutorialVideoOut]
