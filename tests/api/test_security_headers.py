"""Issue 12 part 5: security headers on every answer (API, the single-page app and its assets,
uploads, errors, Socket.IO), a Content-Security-Policy the built front end satisfies, and HSTS only
when PUBLIC_URL is https."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.core.security_headers import SecurityHeaders, app_policy
from app.core.settings import ROOT_DIR, Settings, get_settings


def directives(policy: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for directive in policy.split(";"):
        name, *sources = directive.split()
        assert name not in parsed, f"{name} twice in {policy}"
        parsed[name] = sources
    return parsed


@pytest.fixture
def spa_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app serving a stand-in build: index.html and one hashed asset."""
    from app.main import create_app

    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text('<!doctype html><div id="root"></div>')
    (tmp_path / "assets" / "index-abc123.js").write_text("console.log('app')")
    monkeypatch.setattr(get_settings(), "frontend_dist", tmp_path)
    with TestClient(create_app()) as client:
        yield client


def assert_common_headers(response_headers: dict[str, str] | object) -> dict[str, list[str]]:
    headers = dict(response_headers)  # type: ignore[call-overload]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert headers["x-frame-options"] == "DENY"
    assert "strict-transport-security" not in headers  # PUBLIC_URL is http in tests
    policy = directives(headers["content-security-policy"])
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy.get("object-src", policy["default-src"]) == ["'none'"]
    return policy


def test_api_answers_carry_the_headers(client: TestClient) -> None:
    for response in (client.get("/v2/config/app-version"), client.get("/v2/no-such-call"), client.get("/health")):
        policy = assert_common_headers(response.headers)
        assert policy["script-src"] == ["'self'"], "no inline or foreign script on the app's policy"
    refused = client.post("/v2/users/sign-in", json={})
    assert refused.status_code == 400
    assert_common_headers(refused.headers)


def test_the_app_and_its_assets_carry_the_headers(spa_client: TestClient) -> None:
    page = spa_client.get("/virtualtours/abc")
    asset = spa_client.get("/assets/index-abc123.js")
    assert page.status_code == 200 and asset.status_code == 200
    for response in (page, asset):
        policy = assert_common_headers(response.headers)
        assert policy["script-src"] == ["'self'"]
        # MapLibre starts its workers from blob: URLs.
        assert "blob:" in policy["worker-src"] and "blob:" in policy["child-src"]
        # Provider players in frames, their preview pictures (and data: URLs) as images.
        assert "https:" in policy["frame-src"] and {"https:", "data:"} <= set(policy["img-src"])
        assert "'self'" in policy["connect-src"] and "ws://127.0.0.1:8000" in policy["connect-src"]


def test_uploads_are_served_as_inert_files(client: TestClient) -> None:
    uploads = get_settings().uploads_dir
    (uploads / "profile-images").mkdir(parents=True, exist_ok=True)
    (uploads / "profile-images" / "probe.txt").write_text("<script>alert(1)</script>")
    for response in (client.get("/uploads/profile-images/probe.txt"), client.get("/uploads/none.jpg")):
        policy = assert_common_headers(response.headers)
        assert policy["default-src"] == ["'none'"] and "sandbox" in policy


def test_the_api_documentation_pages_get_their_own_policy(client: TestClient) -> None:
    for path in ("/docs", "/redoc"):
        response = client.get(path)
        assert response.status_code == 200
        policy = assert_common_headers(response.headers)
        # FastAPI's pages load Swagger UI / ReDoc from jsDelivr and start them inline.
        assert "https://cdn.jsdelivr.net" in policy["script-src"]


def test_socket_io_answers_carry_the_headers(database: object) -> None:
    from app.main import create_asgi_app

    client = TestClient(create_asgi_app())  # no `with`: the serving lifespan is not started
    response = client.get("/socket.io/", params={"EIO": "4", "transport": "polling"})
    assert response.status_code == 200
    assert_common_headers(response.headers)


def test_hsts_only_when_the_site_is_served_over_https() -> None:
    https = Settings(public_url="https://tours.example.com")
    assert (b"strict-transport-security", b"max-age=31536000; includeSubDomains") in SecurityHeaders.from_settings(
        https
    ).common
    policy = directives(app_policy(https))
    # Over https a provider's plain-http address would be mixed content: only https: is allowed.
    assert policy["frame-src"] == ["https:"] and "http:" not in policy["img-src"]
    assert "wss://tours.example.com" in policy["connect-src"]
    plain = SecurityHeaders.from_settings(Settings(public_url="http://127.0.0.1:8000"))
    assert all(name != b"strict-transport-security" for name, _ in plain.common)


def test_configured_hosts_join_the_policy_and_nothing_else_does() -> None:
    bare = directives(app_policy(Settings()))
    assert bare["script-src"] == ["'self'"] and not any("google" in s or "facebook" in s for s in bare["connect-src"])
    configured = directives(
        app_policy(
            Settings(
                google_client_id="123.apps.googleusercontent.com",
                facebook_app_id="42",
                map_style_streets_url="https://api.maptiler.com/maps/streets/style.json?key=k",
                csp_connect_sources="https://tiles.example.com, https://fonts.example.com",
            )
        )
    )
    assert configured["script-src"] == [
        "'self'",
        "https://accounts.google.com/gsi/client",
        "https://connect.facebook.net",
    ]
    for origin in ("https://api.maptiler.com", "https://tiles.example.com", "https://fonts.example.com"):
        assert origin in configured["connect-src"] and origin in configured["img-src"]
    with pytest.raises(ValueError):
        Settings(csp_connect_sources="https://x.example.com; script-src *")


def test_stripe_js_is_allowed_only_when_payments_are_on() -> None:
    assert not any("stripe" in source for source in directives(app_policy(Settings()))["script-src"])
    # A publishable key alone (no secret key: payments off) does not open the policy either.
    assert "stripe" not in app_policy(Settings(stripe_publishable_key="pk_test_x"))
    on = directives(app_policy(Settings(stripe_secret_key="sk_test_x", stripe_publishable_key="pk_test_x")))
    assert on["script-src"] == ["'self'", "https://js.stripe.com", "https://*.js.stripe.com"]
    assert "https://api.stripe.com" in on["connect-src"] and on["frame-src"] == ["https:", "http:"]


class _InlineScripts(HTMLParser):
    """Collects what a `script-src 'self'` policy refuses: inline scripts and on* handler attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.refused: list[str] = []
        self._inline = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self.refused += [f"{tag} {name}=" for name in values if name.startswith("on")]
        self._inline = tag == "script" and not values.get("src")
        if tag == "script" and values.get("src") and re.match(r"(https?:)?//", values["src"] or ""):
            self.refused.append(f"script from {values['src']}")

    def handle_data(self, data: str) -> None:
        if self._inline and data.strip():
            self.refused.append(f"inline script: {data.strip()[:60]}")

    def handle_endtag(self, tag: str) -> None:
        self._inline = False


@pytest.mark.parametrize("index", ["frontend/index.html", "frontend/dist/index.html"])
def test_the_front_end_page_has_no_script_the_policy_refuses(index: str) -> None:
    page = ROOT_DIR / index
    if not page.exists():
        pytest.skip(f"{index} is not built here (npm --prefix frontend run build)")
    parser = _InlineScripts()
    parser.feed(page.read_text())
    assert parser.refused == []
