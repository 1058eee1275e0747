"""Settings: every external part is chosen by one environment variable.

An unset variable falls back to the embedded default, so `make run` needs nothing installed.
"""

from __future__ import annotations

import base64
import ipaddress
import os
import secrets
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from cryptography.fernet import Fernet
from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

ROOT_DIR = Path(__file__).resolve().parents[2]
APP_VERSION = "2.3.7"

# Values that mean "nobody chose a secret": sample configurations and templates ship them.
PLACEHOLDER_SECRETS = frozenset(
    {"change-me-in-production", "change-me", "changeme", "changethis", "change-this", "secret", "please-change-me"}
)
# HS256 signs with this key: below 256 bits it can be guessed offline from one token.
MIN_JWT_SECRET_LENGTH = 32
MAKE_JWT_SECRET = 'python -c "import secrets; print(secrets.token_urlsafe(48))"'
MAKE_ENCRYPTION_KEY = 'python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"'


class InsecureSettingsError(RuntimeError):
    """A deployment (ENVIRONMENT other than development) without a real secret. Not a ValueError, so
    pydantic lets it through as it is: its message is the whole story, with no settings echoed."""


class TutorialVideo(BaseModel):
    title: str
    url: str


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    environment: Literal["development", "staging", "production"] = Field(
        default="development",
        description="Outside development every process refuses to start without JWT_SECRET and ENCRYPTION_KEY.",
    )
    data_dir: Path = Field(default=ROOT_DIR / "data", description="Local files: SQLite, index, uploads, secrets.")
    database_url: str = Field(default="", description="SQLAlchemy URL; empty means a SQLite file under data/.")
    elasticsearch_url: str = Field(default="", description="Elasticsearch 8 URL; empty means the embedded index.")
    elasticsearch_index_prefix: str = "touratlas"
    max_requests_in_flight: int = Field(
        default=24, ge=1, description="HTTP requests served at once per process; the rest wait (see core/concurrency)."
    )
    redis_url: str = Field(default="", description="Redis URL; empty means in-process tasks and Socket.IO.")
    tasks_in_process: bool = Field(default=False, description="Run tasks in this process even when REDIS_URL is set.")
    embeddings_enabled: bool = Field(
        default=True, description="Compute sentence embeddings (similar tours, For You); tests turn it off."
    )
    tasks_eager: bool = Field(default=False, description="Run in-process tasks synchronously (tests).")
    outbox_lease_seconds: float = Field(
        default=30.0,
        ge=1.0,
        description="How long a claimed outbox entry stays its worker's without a heartbeat (renewed every "
        "third of it while the batch runs); a dead worker's entries are taken again after it.",
    )
    periodic_tasks: bool = Field(
        default=True, description="Run the periodic tasks in this process when it runs tasks itself (no Redis)."
    )
    smtp_url: str = Field(default="", description="smtp://user:pass@host:port; empty stores mail in the outbox.")
    mail_from: str = "TourAtlas <no-reply@touratlas.local>"
    stripe_secret_key: str = ""
    stripe_webhook_secret: str = ""
    stripe_publishable_key: str = ""
    stripe_api_base: str = Field(default="", description="Override for tests against a local fake Stripe.")
    stripe_manage_payments_url: str = Field(
        default="", description="Stripe's customer-portal login link, where subscribers manage their cards."
    )
    storage_url: str = Field(default="", description="s3://bucket URL; empty stores uploads under data/uploads.")
    geocoder_url: str = Field(default="", description="Hosted geocoder base URL; empty uses the offline gazetteer.")
    geocoder_token: str = ""
    map_style_streets_url: str = ""
    map_style_dark_url: str = ""
    map_style_satellite_url: str = ""
    basemap_pmtiles: str = Field(
        default="",
        description="A PMTiles vector basemap (Protomaps schema) to serve instead of the offline one: a path, "
        "relative to DATA_DIR unless absolute; empty serves the offline basemap.",
    )
    jwt_secret: str = Field(
        default="", description="Signing key; in development generated under data/ on first run when empty."
    )
    jwt_ttl_minutes: int = 60 * 24
    encryption_key: str = Field(
        default="", description="Fernet key for vendor credentials; in development generated under data/ when empty."
    )
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["http://localhost:5173", "http://127.0.0.1:5173"]
    )
    public_url: str = "http://127.0.0.1:8000"
    host: str = "127.0.0.1"
    port: int = 8000
    frontend_dist: Path = ROOT_DIR / "frontend" / "dist"
    seed_demo: bool = Field(default=True, description="Load the dictionaries and demo corpus into an empty database.")
    demo_tours: int = 2000
    demo_creators: int = 100
    # Social sign-in (spec §3 auth_system). Empty client/app ids switch that provider off.
    google_client_id: str = Field(default="", description="OAuth client id: the audience of Google ID tokens.")
    google_jwks_url: str = "https://www.googleapis.com/oauth2/v3/certs"
    google_issuer: str = "https://accounts.google.com"
    facebook_app_id: str = ""
    facebook_app_secret: str = ""
    facebook_graph_url: str = "https://graph.facebook.com/v19.0"
    # The platform's Facebook page that release notes are posted to (POST facebook-post); empty: off.
    # Its own Graph address (the same API as sign-in's) so a test can fake each one separately.
    facebook_page_graph_url: str = "https://graph.facebook.com/v19.0"
    facebook_page_id: str = ""
    facebook_page_access_token: str = ""
    # Help & Feedback (spec §2): where support messages are mailed, the bug form's known-bugs page
    # (empty: the form links to the Updates screen, whose Fixed and Coming Soon lists say what is
    # known) and the help tool's tutorial videos.
    support_email: str = "support@touratlas.local"
    known_bugs_url: str = ""
    tutorial_videos: list[TutorialVideo] = Field(
        default_factory=list, description='JSON: [{"title": "...", "url": "https://..."}]'
    )
    social_http_timeout_seconds: float = 10.0
    # The 3D-capture vendor whose API keys creators connect (spec §6 vendor API credentials): the
    # Matterport Model API's GraphQL endpoint; tests point it at a local fake.
    matterport_api_url: str = Field(
        default="https://api.matterport.com/api/models/graph",
        description="Matterport Model API GraphQL endpoint (credential checks, matterport-type).",
    )
    vendor_http_timeout_seconds: float = Field(default=10.0, gt=0, description="Per call to a vendor's API.")
    # The mailing-list provider (spec §7 mailing-list sync): a Mailchimp Marketing API v3 account and
    # the audience (list) kept in step with the users who consented to e-mails. An empty key or list id
    # switches the mailing-list calls off (they answer 400 saying so); tests point the URL at a local fake.
    mailchimp_api_key: str = Field(default="", description="Mailchimp API key ('<key>-<data centre>').")
    mailchimp_list_id: str = Field(default="", description="The Mailchimp audience (list) id kept in step.")
    mailchimp_api_url: str = Field(
        default="", description="Marketing API base URL; empty means https://<data centre>.api.mailchimp.com/3.0."
    )
    mailing_http_timeout_seconds: float = Field(default=10.0, gt=0, description="Per call to the mailing-list API.")
    mailing_retry_base_seconds: float = Field(
        default=1.0, ge=0, description="First wait before retrying a 429/5xx of the mailing-list API (doubles)."
    )
    mailing_sync_batch_size: int = Field(
        default=500, ge=1, le=500, description="Members per batch upsert (Mailchimp takes at most 500)."
    )
    # Abuse limits (limits' notation, e.g. "10/minute"). Sign-in: the failures per account protect the
    # account; the per-IP limit is a looser flood guard (README "Abuse limits"). Sign-up, password reset
    # and the link lookup count every attempt per IP and per account.
    auth_rate_limit_per_ip: str = "30/minute"
    auth_rate_limit_per_account: str = "10/minute"
    sign_in_failures_per_account: str = "10/15 minutes"
    # Reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (IPs or CIDR networks,
    # comma-separated; "*" trusts any). Empty: no proxy is trusted, the client is the TCP peer.
    trusted_proxies: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Extra origins the front end may fetch from (Content-Security-Policy connect-src and img-src):
    # the tile, sprite and font hosts of a hosted map style (MAP_STYLE_*_URL).
    csp_connect_sources: Annotated[list[str], NoDecode] = Field(default_factory=list)
    password_reset_ttl_minutes: int = 60
    # An expired user token can be renewed (update-token) for this long after it was issued.
    token_renewal_days: int = 30
    # The link lookup (GET /v2/virtualtours/discover) refuses private, loopback and other non-public
    # addresses; these networks (CIDR, comma-separated) are let through anyway: tests and the e2e
    # server use 127.0.0.1/32 for their local fake provider. Keep it empty in production.
    discover_allowed_networks: Annotated[list[str], NoDecode] = Field(default_factory=list)

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip().startswith("["):
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _split_proxies(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip().startswith("["):
            value = [proxy.strip() for proxy in value.split(",") if proxy.strip()]
        if isinstance(value, list):
            for proxy in value:
                if proxy != "*":
                    ipaddress.ip_network(str(proxy), strict=False)  # a typo fails at start-up
        return value

    @field_validator("csp_connect_sources", mode="before")
    @classmethod
    def _split_sources(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip().startswith("["):
            value = [source for source in value.replace(",", " ").split() if source]
        if isinstance(value, list):
            for source in value:
                # A source is one token: a ";" or a quote would smuggle another directive into the policy.
                if not str(source) or any(char in str(source) for char in ";,'\" \t\n"):
                    raise ValueError(f"not a Content-Security-Policy source: {source!r}")
        return value

    @field_validator("discover_allowed_networks", mode="before")
    @classmethod
    def _split_networks(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip().startswith("["):
            value = [network.strip() for network in value.split(",") if network.strip()]
        if isinstance(value, list):
            for network in value:
                ipaddress.ip_network(str(network), strict=False)  # a typo fails at start-up, not per request
        return value

    @field_validator("encryption_key")
    @classmethod
    def _fernet_key(cls, value: str) -> str:
        if value:
            try:
                Fernet(value.encode())
            except ValueError:
                # A typo fails at start-up, not at the first credential read; the value is not echoed.
                raise InsecureSettingsError(
                    "ENCRYPTION_KEY is not a Fernet key (url-safe base64 of 32 bytes). "
                    f"Make one with: {MAKE_ENCRYPTION_KEY}"
                ) from None
        return value

    @model_validator(mode="after")
    def _refuse_missing_secrets(self) -> Settings:
        """Generated secrets suit one machine: on a deployment every container would make its own,
        so tokens signed by one API process fail on the next and credentials encrypted by one worker
        cannot be read by another. Outside development a secret must be given (as
        full-stack-fastapi-template's settings insist)."""
        if self.environment == "development":
            return self
        problems = []
        secret = self.jwt_secret.strip()
        if not secret:
            problems.append(f"JWT_SECRET is not set. Make one with: {MAKE_JWT_SECRET}")
        elif secret.lower() in PLACEHOLDER_SECRETS:
            problems.append(f"JWT_SECRET is a placeholder ({secret!r}). Make one with: {MAKE_JWT_SECRET}")
        elif len(secret) < MIN_JWT_SECRET_LENGTH:
            problems.append(
                f"JWT_SECRET is {len(secret)} characters; at least {MIN_JWT_SECRET_LENGTH} are needed. "
                f"Make one with: {MAKE_JWT_SECRET}"
            )
        if not self.encryption_key:
            problems.append(f"ENCRYPTION_KEY is not set. Make one with: {MAKE_ENCRYPTION_KEY}")
        if problems:
            raise InsecureSettingsError(
                f"ENVIRONMENT={self.environment} refuses to start:\n"
                + "".join(f"  - {problem}\n" for problem in problems)
                + "Give every process of the deployment the same values (only ENVIRONMENT=development"
                " generates them, under DATA_DIR, for one machine)."
            )
        return self

    @property
    def sqlalchemy_url(self) -> str:
        if self.database_url:
            return normalise_database_url(self.database_url)
        return f"sqlite:///{self.data_dir / 'touratlas.db'}"

    @property
    def uploads_dir(self) -> Path:
        return self.data_dir / "uploads"

    def resolved_jwt_secret(self) -> str:
        """The configured secret, or one generated once and kept under data/ so restarts keep sessions."""
        if self.jwt_secret:
            return self.jwt_secret
        return self._generated_secret("jwt_secret", lambda: secrets.token_urlsafe(48))

    def resolved_encryption_key(self) -> str:
        """A Fernet key (urlsafe base64 of 32 bytes) for secrets stored at rest."""
        if self.encryption_key:
            return self.encryption_key
        return self._generated_secret("encryption_key", lambda: base64.urlsafe_b64encode(os.urandom(32)).decode())

    def _generated_secret(self, name: str, make: Callable[[], str]) -> str:
        # Once linked into place the file never changes: read it once per process, not per token.
        known = _GENERATED_SECRETS.get((self.data_dir, name))
        if known is not None:
            return known
        secret_file = self.data_dir / name
        if not secret_file.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            # Written aside, then linked into place: link fails when another process or thread got
            # there first, so everybody reads the one complete secret, never a half-written file.
            draft = self.data_dir / f".{name}.{os.getpid()}.{secrets.token_hex(4)}"
            draft.write_text(make())
            draft.chmod(0o600)
            try:
                os.link(draft, secret_file)
            except FileExistsError:
                pass
            finally:
                draft.unlink()
        secret = secret_file.read_text().strip()
        _GENERATED_SECRETS[(self.data_dir, name)] = secret
        return secret


_GENERATED_SECRETS: dict[tuple[Path, str], str] = {}


def normalise_database_url(url: str) -> str:
    """Accept plain postgres:// URLs and pick the psycopg 3 driver for them."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@lru_cache
def get_settings() -> Settings:
    return Settings()
