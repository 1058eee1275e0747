"""TourAtlas under load: visitors who browse the feed, pan the map, search, open tours and like them.

The calls and their parameters are the front end's (frontend/src/features: the feed's grid pages of 48
with the session's seed, the map's area call with the viewport's bounds and zoom plus the list of the
tours in view, search as you type, the tour page's four calls). Ids are real: each visitor opens the
tours its own feed, map and search answers showed it.

Three of four visitors are guests (a guest token first, as the front end asks for one); the fourth signs
in with its own account, from its own loopback address (127.42.x.y) as a real visitor comes from its own
IP: the per-IP sign-in limit (30 a minute) is a flood guard that one address signing in forty people
would trip. Signed-in visitors also like and unlike.

Run by `python -m bench.bench_load` (which starts the server), or by hand against a running one:

    locust -f bench/locustfile.py --headless -u 30 -r 5 -t 60s --host http://127.0.0.1:8000

Environment (all optional but the accounts):
    TOURATLAS_LOAD_HOSTS     comma-separated base URLs of several API processes: each visitor keeps one
    TOURATLAS_LOAD_ACCOUNTS  a file with one account email per line, one per signed-in visitor
    TOURATLAS_LOAD_PASSWORD  their password (default: the demo members' password)
    TOURATLAS_LOAD_THINK     seconds a visitor waits between actions, "MIN-MAX" (default 1-3); "0" for none
"""

from __future__ import annotations

import http.client
import itertools
import json
import math
import os
import random
import time
import uuid
from collections import deque
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from locust import FastHttpUser, between, constant, task

GRID = "/v2/user-recomendations/filtered-grid"
MAP = "/v2/user-recomendations/filtered-map"
SEARCH = "/v2/user-recomendations/search"
GRID_PAGE = 48  # spec §9: the grid loads 48 cards at a time
TOURS_IN_VIEW_PAGE = 24
VIEWPORT = (1280, 720)  # a desktop map, px; MapLibre's tiles are 512 px wide
FEEDS = ("popular", "trending", "new", "featured")
SORTINGS = ("newest", "likes", "views", "saves", "az")
# Words visitors type: places and things the demo corpus has, plus words picked from the titles they saw.
SEARCH_WORDS = ("paris", "museum", "beach", "harbour", "london", "hotel", "tokyo", "church", "sunset", "castle")

_hosts = [host.strip().rstrip("/") for host in os.environ.get("TOURATLAS_LOAD_HOSTS", "").split(",") if host.strip()]
_host_turn = itertools.count()
_accounts_file = os.environ.get("TOURATLAS_LOAD_ACCOUNTS")
_accounts = deque(Path(_accounts_file).read_text().split() if _accounts_file else [])
_password = os.environ.get("TOURATLAS_LOAD_PASSWORD", "Demo123!")
_address_turn = itertools.count()


def _think_time() -> Any:
    spec = os.environ.get("TOURATLAS_LOAD_THINK", "1-3")
    low, _, high = spec.partition("-")
    return between(float(low), float(high)) if high else constant(float(low))


def _own_loopback_address() -> str:
    number = next(_address_turn)
    return f"127.42.{number // 250}.{number % 250 + 1}"


class Visitor(FastHttpUser):
    """What guests and signed-in visitors both do; the think time is the pause between two actions."""

    abstract = True
    wait_time = _think_time()
    default_headers = {"Accept-Language": "en"}

    def on_start(self) -> None:
        if _hosts:
            # Several API processes and no proxy in front: each visitor keeps one, as a sticky balancer would.
            self.client.base_url = _hosts[next(_host_turn) % len(_hosts)]
        self.seed = uuid.uuid4().hex[:12]  # the front end's sessionSeed(): random order stays stable per visit
        self.token = ""
        self.token = self.authenticate()
        self.tours: deque[str] = deque(maxlen=200)  # guids this visitor has seen on cards and pins
        self.titles: deque[str] = deque(maxlen=50)
        self.categories: list[int] = []
        self.countries: list[tuple[str, tuple[float, float], int]] = []
        self.tags: list[int] = []
        # The layout's first calls, then the feed's first page (the landing screen).
        self.get("/v2/config/", "config")
        self.get("/v2/config/app-version", "config")
        categories = self.get("/v2/categories/", "categories")
        self.categories = [category["id"] for category in (categories or {}).get("data", [])]
        self.browse_feed()

    def authenticate(self) -> str:
        raise NotImplementedError

    def guest_token(self) -> str:
        """The front end asks for a guest token before its first call (spec §4)."""
        with self.client.post(
            "/v2/users/guest-token", json={"guest_id": str(uuid.uuid4())}, name="guest token", catch_response=True
        ) as answer:
            if answer.status_code != 200:
                answer.failure(f"{answer.status_code}: {(answer.text or '')[:200]}")
                return ""
            return str(answer.json()["user_jwt"])

    # ------------------------------------------------------------------ calls

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def get(self, path: str, name: str, params: dict[str, Any] | None = None) -> Any:
        query = {key: value for key, value in (params or {}).items() if value is not None}
        with self.client.get(path, params=query, headers=self.headers(), name=name, catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"{answer.status_code}: {(answer.text or '')[:200]}")
                return None
            try:
                return answer.json()
            except ValueError:
                answer.failure("not JSON")
                return None

    def post(self, path: str, name: str, body: dict[str, Any]) -> Any:
        with self.client.post(path, json=body, headers=self.headers(), name=name, catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"{answer.status_code}: {(answer.text or '')[:200]}")
                return None
            return answer.json()

    def remember(self, cards: list[dict[str, Any]]) -> None:
        for card in cards:
            if card.get("type") == "vt" and card.get("guid"):
                self.tours.append(card["guid"])
                if card.get("title"):
                    self.titles.append(card["title"])

    # ------------------------------------------------------------------ the feed

    def feed_filters(self) -> dict[str, Any]:
        """Most visits keep the default feed; some pick a category, a country, a tag, a feed or a sorting."""
        roll = random.random()
        if roll < 0.5 or not self.categories:
            return {}
        if roll < 0.7:
            return {"categories": str(random.choice(self.categories))}
        if roll < 0.8 and self.countries:
            return {"countries": random.choice(self.countries)[0]}
        if roll < 0.85 and self.tags:
            return {"tags": str(random.choice(self.tags))}
        if roll < 0.93:
            return {"feed": random.choice(FEEDS)}
        return {"sorting": random.choice(SORTINGS)}

    def grid_page(self, filters: dict[str, Any], offset: int, name: str) -> Any:
        query = {"mode": "both", **filters, "seed": self.seed, "limit": GRID_PAGE, "offset": offset}
        page = self.get(GRID, name, query)
        if page:
            self.remember(page.get("data", []))
        return page

    @task(10)
    def browse_feed(self) -> None:
        """The feed's first page, and further pages while the visitor scrolls (each next page half as likely)."""
        filters = self.feed_filters()
        name = "feed" if not filters else "feed (filtered)"
        page = self.grid_page(filters, 0, name)
        offset = 0
        while page and random.random() < 0.5 and offset + GRID_PAGE < page.get("total_items", 0):
            offset += GRID_PAGE
            page = self.grid_page(filters, offset, "feed: next page")

    @task(2)
    def open_filters(self) -> None:
        """The filters dropdown loads its lists once, then the visitor picks a category (a feed call)."""
        if not self.countries:
            countries = self.get("/v2/locations/address-countries", "filters: countries") or {}
            self.countries = [
                (country["code"], (country["center"][0], country["center"][1]), country["vt_count"])
                for country in countries.get("data", [])
                if country.get("center") and country.get("vt_count")
            ]
            tags = self.get("/v2/categories/tags", "filters: tags") or {}
            self.tags = [tag["id"] for tag in tags.get("data", [])]
            self.get("/v2/categories/media-types", "filters: media types")
        if self.categories:
            self.grid_page({"categories": str(random.choice(self.categories))}, 0, "feed (filtered)")

    # ------------------------------------------------------------------ the map

    def map_view(self, centre: tuple[float, float], zoom: float) -> list[dict[str, Any]]:
        """One viewport: the clusters and pins of the area, and (half the time) the list of the tours in view."""
        west, south, east, north = viewport_bounds(centre, zoom)
        bounds = {"leftX": west, "leftY": south, "rightX": east, "rightY": north}
        area = self.get(MAP, "map", {**bounds, "zoom": round(zoom, 2)}) or {}
        features = area.get("features", [])
        for feature in features:
            properties = feature.get("properties") or {}
            if properties.get("type") == "vt" and properties.get("guid"):
                self.tours.append(properties["guid"])
        if random.random() < 0.5:
            query = {**bounds, "mode": "media", "seed": self.seed, "limit": TOURS_IN_VIEW_PAGE, "offset": 0}
            listed = self.get(GRID, "map: tours in view", query) or {}
            self.remember(listed.get("data", []))
        return list(features)

    @task(5)
    def pan_the_map(self) -> None:
        """Open the map on the world or a country, then zoom in towards pins and pan around them."""
        if self.countries and random.random() < 0.6:
            weights = [math.sqrt(count) for _, _, count in self.countries]
            _, centre, _ = random.choices(self.countries, weights=weights)[0]
            zoom = random.uniform(3.5, 6)
        else:
            centre, zoom = (random.uniform(-60, 60), random.uniform(-20, 50)), random.uniform(1.5, 3)
        features = self.map_view(centre, zoom)
        for _ in range(random.randint(1, 4)):
            if features and random.random() < 0.6:
                # Towards a cluster or a pin the visitor saw.
                lng, lat = random.choice(features)["geometry"]["coordinates"]
                centre, zoom = (lng, lat), min(zoom + random.uniform(1, 3), 16)
            else:
                span = 900 / 2**zoom
                centre = (centre[0] + random.uniform(-0.4, 0.4) * span, centre[1] + random.uniform(-0.2, 0.2) * span)
            features = self.map_view(centre, zoom)

    # ------------------------------------------------------------------ search

    @task(3)
    def search(self) -> None:
        """Search as you type (the box asks after each pause), then, sometimes, the feed for the words."""
        word = self.search_word()
        typed = [word[:2], word[:4], word] if len(word) > 4 else [word[:2], word]
        for text in dict.fromkeys(typed):
            answer = self.get(SEARCH, "search", {"searchData": text}) or {}
            for result in answer.get("data", []):
                if result.get("type") == "tour" and isinstance(result.get("id"), str):
                    self.tours.append(result["id"])
        if random.random() < 0.4:
            self.grid_page({"searchPattern": word}, 0, "feed: text search")

    def search_word(self) -> str:
        if self.titles and random.random() < 0.5:
            words = [word.strip(",.—-'\"()").lower() for word in random.choice(self.titles).split()]
            words = [word for word in words if len(word) >= 4 and word.isalpha()]
            if words:
                return random.choice(words)
        return random.choice(SEARCH_WORDS)

    # ------------------------------------------------------------------ a tour

    @task(5)
    def open_a_tour(self) -> None:
        self.open_tour()

    def open_tour(self) -> dict[str, Any] | None:
        """The tour page: the tour, its counters with the visitor's like, the counted view, similar tours."""
        if not self.tours:
            self.browse_feed()
            if not self.tours:
                return None
        guid = random.choice(self.tours)
        self.get(f"/v2/virtualtours/{guid}", "tour")
        player = self.get(f"/v2/virtualtours/player/{guid}", "tour: player")
        self.post("/v2/virtualtours/post_view", "tour: view", {"id": guid})
        similar = self.get(f"/v2/user-recomendations/similar-media/{guid}", "tour: similar", {"limit": 12})
        if isinstance(similar, list):
            self.remember(similar)
        return {"guid": guid, **player} if player else None


class Guest(Visitor):
    weight = 3

    def authenticate(self) -> str:
        return self.guest_token()


class Member(Visitor):
    """A signed-in visitor: its own account, signed in once from its own address; likes and unlikes."""

    weight = 1

    def authenticate(self) -> str:
        if not _accounts:
            # More signed-in visitors than accounts given: this one stays a guest rather than share an account.
            return self.guest_token()
        self.token = self.sign_in(_accounts.popleft())
        if self.token:
            self.get("/v2/users/", "current user")
        return self.token

    def sign_in(self, email: str) -> str:
        """POST sign-in over its own connection, bound to this visitor's loopback address when the server
        is on loopback (locust's client cannot bind one); reported to locust like any other request."""
        base = urlsplit(self.client.base_url or "")
        source = (_own_loopback_address(), 0) if base.hostname in {"127.0.0.1", "localhost"} else None
        body = json.dumps({"email": email, "password": _password, "auth_system": "email"}).encode()
        started = time.perf_counter()
        error: Exception | None = None
        payload = b""
        try:
            connection = http.client.HTTPConnection(
                base.hostname or "", base.port or 80, timeout=30, source_address=source
            )
            connection.request("POST", "/v2/users/sign-in", body=body, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            payload = response.read()
            connection.close()
            if response.status != 200:
                error = RuntimeError(f"{response.status}: {payload[:200]!r}")
        except OSError as exc:
            error = exc
        self.environment.events.request.fire(
            request_type="POST",
            name="sign-in",
            response_time=(time.perf_counter() - started) * 1000,
            response_length=len(payload),
            exception=error,
            context={},
        )
        return "" if error else str(json.loads(payload)["user_jwt"])

    @task(3)
    def like_or_unlike(self) -> None:
        """On a tour page, the heart: like it, or take the like back when it was liked (the answer's
        isLike must be what was asked)."""
        tour = self.open_tour()
        if not tour or not self.token:
            return
        wanted = not tour.get("user_like")
        body = {"id": tour["guid"], "isLike": wanted, "likes": tour.get("likes", 0)}
        with self.client.post(
            "/v2/virtualtours/post_likes", json=body, headers=self.headers(), name="like", catch_response=True
        ) as answer:
            if answer.status_code != 200:
                answer.failure(f"{answer.status_code}: {(answer.text or '')[:200]}")
            elif answer.json().get("isLike") is not wanted:
                answer.failure(f"asked isLike={wanted}, the answer says {answer.json().get('isLike')}")


def viewport_bounds(centre: tuple[float, float], zoom: float) -> tuple[float, float, float, float]:
    """West, south, east, north of a desktop map at this centre and zoom (Web Mercator, 512 px tiles)."""
    width, height = VIEWPORT
    lng, lat = centre
    lat = max(-80.0, min(80.0, lat))
    span_lng = min(360.0, 360.0 * width / (512 * 2**zoom))
    span_lat = span_lng * height / width * math.cos(math.radians(lat))
    west, east = max(-180.0, lng - span_lng / 2), min(180.0, lng + span_lng / 2)
    south, north = max(-85.0, lat - span_lat / 2), min(85.0, lat + span_lat / 2)
    return round(west, 5), round(south, 5), round(east, 5), round(north, 5)
