from __future__ import annotations

from pydantic import BaseModel, Field


class PlatformConfigOut(BaseModel):
    restrict_access: bool
    images_approval: bool
    gui_version: str = Field(description="The client version open pages compare with their own build")


class PlatformConfigUpdate(BaseModel):
    restrict_access: bool | None = None
    images_approval: bool | None = None
    gui_version: str | None = Field(
        default=None,
        max_length=64,
        description="Announce a new client version: every open page is offered a reload (1 to 32 characters)",
    )


class AppVersionOut(BaseModel):
    gui_version: str


class HealthOut(BaseModel):
    status: str = Field(description="ok, or degraded when a part fails or a warning stands")
    database: str
    index: str
    redis: str
    warnings: list[str] = Field(
        default_factory=list,
        description="What an operator must fix though every part answers, e.g. an embedded index the "
        "workers write in a folder this process cannot see",
    )
