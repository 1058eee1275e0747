"""Platform state (spec §3 "Platform state", §7 Config): a single row with id 1."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, String
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow
from app.core.settings import APP_VERSION

PLATFORM_CONFIG_ID = 1


class PlatformConfig(Base):
    __tablename__ = "platform_config"
    # The table holds one row; the constraint keeps a second one from ever appearing.
    __table_args__ = (CheckConstraint(f"id = {PLATFORM_CONFIG_ID}", name="single_row"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False, default=PLATFORM_CONFIG_ID)
    restrict_access: Mapped[bool] = mapped_column(default=False)
    images_approval: Mapped[bool] = mapped_column(default=False)
    gui_version: Mapped[str] = mapped_column(String(32), default=APP_VERSION)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
