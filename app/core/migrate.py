"""Run the Alembic migrations from Python (start-up, `cli setup`, tests), without the alembic CLI."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from app.core.settings import ROOT_DIR

ALEMBIC_INI = ROOT_DIR / "alembic.ini"
MIGRATIONS_DIR = ROOT_DIR / "app" / "migrations"


def alembic_config(url: str | None = None) -> Config:
    """The project's Alembic config; `url` overrides the settings' database URL."""
    config = Config(str(ALEMBIC_INI))
    # Absolute, so migrating works from any working directory.
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url:
        # ConfigParser interpolates "%" (e.g. in URL-encoded passwords); doubling keeps it literal.
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def upgrade_database(url: str | None = None) -> None:
    """Bring the database at `url` (default: the settings' database) to the newest revision."""
    command.upgrade(alembic_config(url), "head")


def downgrade_database(url: str | None = None, revision: str = "base") -> None:
    command.downgrade(alembic_config(url), revision)
