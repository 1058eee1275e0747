"""Security headers on every answer: Content-Security-Policy, nosniff, Referrer-Policy, no framing,
and HSTS when the site is served over https (PUBLIC_URL).

Three policies, by path:
- the app (the built front end, the API, Socket.IO): scripts only from this origin (the build has no
  inline script), the providers' tour players in frames, their preview pictures and videos from any
  web origin (tours come from any host), MapLibre's workers from blob: URLs; styles may be inline
  because Mantine writes its CSS variables into <style> elements at run time. The sign-in SDKs of
  Google and Facebook are allowed only when their ids are configured, Stripe.js only when payments
  are on (STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY; the front end loads it with the payment form
  only); a hosted map style's origins are added from MAP_STYLE_*_URL and CSP_CONNECT_SOURCES.
- /docs and /redoc: FastAPI's pages load Swagger UI / ReDoc from jsDelivr and start them with an
  inline script; they show only the public API description.
- /uploads: a stored file is never a document that runs anything (GitHub's raw-file policy).
No page may be framed by another site (frame-ancestors 'none'): the spec has no embeddable page.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.settings import Settings, get_settings

DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
UPLOADS_PREFIX = "/uploads/"

GOOGLE_SIGN_IN = "https://accounts.google.com/gsi/"
FACEBOOK_SDK = "https://connect.facebook.net"
FACEBOOK_API = ("https://graph.facebook.com", "https://www.facebook.com")
# Stripe.js (the billing pages' payment form; Stripe's CSP guide): its script, and its API it calls.
# Its frames (js.stripe.com, hooks.stripe.com) are https: frames, which frame-src allows already.
STRIPE_JS = ("https://js.stripe.com", "https://*.js.stripe.com")
STRIPE_API = "https://api.stripe.com"

UPLOADS_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'"
DOCS_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com",
        "font-src 'self' data: https://fonts.gstatic.com",
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
    ]
)
HSTS = "max-age=31536000; includeSubDomains"


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else None


def _serves_https(settings: Settings) -> bool:
    return settings.public_url.lower().startswith("https://")


def _websocket_origin(settings: Settings) -> list[str]:
    """Socket.IO's WebSocket at PUBLIC_URL ('self' covers ws: of the page's own host in current
    browsers; this names it for the others)."""
    origin = _origin(settings.public_url)
    return [origin.replace("http", "ws", 1)] if origin else []


def app_policy(settings: Settings) -> str:
    # Tours, their players and preview pictures live on any host; over plain http (development)
    # a provider's http address is no mixed content, so it is let through too.
    web = ["https:"] if _serves_https(settings) else ["https:", "http:"]
    map_styles = [settings.map_style_streets_url, settings.map_style_dark_url, settings.map_style_satellite_url]
    hosted = sorted({origin for origin in map(_origin, map_styles) if origin} | set(settings.csp_connect_sources))
    scripts, styles, connects = ["'self'"], ["'self'", "'unsafe-inline'"], ["'self'", *_websocket_origin(settings)]
    if settings.google_client_id:
        scripts.append(f"{GOOGLE_SIGN_IN}client")
        styles.append(f"{GOOGLE_SIGN_IN}style")
        connects.append(GOOGLE_SIGN_IN)
    if settings.facebook_app_id:
        scripts.append(FACEBOOK_SDK)
        connects.extend(FACEBOOK_API)
    if settings.stripe_secret_key and settings.stripe_publishable_key:
        scripts.extend(STRIPE_JS)
        connects.append(STRIPE_API)
    directives = [
        ("default-src", "'self'"),
        ("script-src", *scripts),
        ("style-src", *styles),
        ("img-src", "'self'", "data:", "blob:", *web, *hosted),
        ("font-src", "'self'", "data:"),
        ("connect-src", *connects, *hosted),
        ("media-src", "'self'", "blob:", *web),
        ("frame-src", *web),
        ("worker-src", "'self'", "blob:"),
        ("child-src", "'self'", "blob:"),
        ("manifest-src", "'self'"),
        ("object-src", "'none'"),
        ("base-uri", "'self'"),
        ("form-action", "'self'"),
        ("frame-ancestors", "'none'"),
    ]
    return "; ".join(" ".join(directive) for directive in directives)


@dataclass(frozen=True)
class SecurityHeaders:
    """The headers of each kind of answer, encoded once."""

    common: tuple[tuple[bytes, bytes], ...]
    app_policy: bytes
    docs_policy: bytes
    uploads_policy: bytes

    @classmethod
    def from_settings(cls, settings: Settings) -> SecurityHeaders:
        common = [
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"strict-origin-when-cross-origin"),
            (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
        ]
        if _serves_https(settings):
            common.append((b"strict-transport-security", HSTS.encode()))
        return cls(
            common=tuple(common),
            app_policy=app_policy(settings).encode(),
            docs_policy=DOCS_POLICY.encode(),
            uploads_policy=UPLOADS_POLICY.encode(),
        )

    def for_path(self, path: str) -> list[tuple[bytes, bytes]]:
        if path.startswith(UPLOADS_PREFIX):
            policy = self.uploads_policy
        elif path in DOCS_PATHS:
            policy = self.docs_policy
        else:
            policy = self.app_policy
        return [*self.common, (b"content-security-policy", policy)]


class SecurityHeadersMiddleware:
    """Adds the headers to every HTTP answer that does not set them itself (so wrapping twice, as
    create_asgi_app does around Socket.IO and the app, adds nothing twice)."""

    def __init__(self, app: ASGIApp, *, headers: SecurityHeaders | None = None) -> None:
        self.app = app
        self.headers = headers or SecurityHeaders.from_settings(get_settings())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self.headers.for_path(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {bytes(name).lower() for name, _ in headers}
                message["headers"] = headers + [header for header in extra if header[0] not in present]
            await send(message)

        await self.app(scope, receive, send_with_headers)
