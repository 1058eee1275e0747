from __future__ import annotations

from pydantic import BaseModel


class PlatformConfigOut(BaseModel):
    restrict_access: bool
    images_approval: bool


class PlatformConfigUpdate(BaseModel):
    restrict_access: bool | None = None
    images_approval: bool | None = None


class AppVersionOut(BaseModel):
    gui_version: str


class HealthOut(BaseModel):
    status: str
    database: str
    index: str
    redis: str
