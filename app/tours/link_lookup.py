"""The link lookup of the Add media form (spec §4, §7 Media `discover`): fetch the provider's page on
the user's behalf and read its title, description, preview image and place.

Fetching a URL a user typed is a server-side request forgery risk, so `SafeFetcher`:
- accepts http(s) only, without credentials in the URL, on the usual web ports;
- resolves the host itself and refuses it when any address is private, loopback, link-local,
  multicast, reserved or unspecified (IPv4 and IPv6, IPv4 embedded in IPv6 included), unless the
  address lies in `DISCOVER_ALLOWED_NETWORKS`;
- connects to the address it vetted (the URL's host goes only into the Host header and TLS SNI and
  certificate check), so a second DNS answer cannot swap in another address (DNS rebinding);
- follows at most `MAX_REDIRECTS` redirects itself, vetting every hop;
- gives up after a per-read timeout and an overall deadline, reads at most `max_bytes` and accepts
  only the content types asked for.

Metadata comes from OpenGraph and Twitter meta tags, JSON-LD (schema.org) and the page's oEmbed
link, parsed with Beautiful Soup. A place on the page (JSON-LD geo or PostalAddress, og:/place:
coordinates, og: address fields) is resolved through the locations domain.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import re
import socket
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import httpx
from bs4 import BeautifulSoup, Tag
from bs4.filter import SoupStrainer
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.errors import AppError, BadRequest, field_error
from app.core.settings import APP_VERSION
from app.locations import service as locations
from app.locations.geo import LngLat
from app.locations.ports import Geocoder
from app.tours.models import DESCRIPTION_MAX_LENGTH
from app.tours.rules import LINK_FORMAT, check_link_format
from app.vendors.models import Vendor, VendorStatus

logger = logging.getLogger("touratlas.discover")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], list[IPAddress]]

MAX_REDIRECTS = 5
MAX_PAGE_BYTES = 2 * 1024 * 1024
MAX_OEMBED_BYTES = 256 * 1024
READ_TIMEOUT_SECONDS = 5.0
CONNECT_TIMEOUT_SECONDS = 3.0
DEADLINE_SECONDS = 10.0  # the whole fetch, redirects included: a page dripping bytes cannot hold a worker
# Other ports of a public host are refused: the lookup must not become a port scanner.
WEB_PORTS = frozenset({80, 443, 8080, 8443})
HTML_TYPES = ("text/html", "application/xhtml+xml")
OEMBED_TYPES = ("application/json", "text/json", "application/json+oembed", "text/javascript")
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
USER_AGENT = f"TourAtlas/{APP_VERSION} (link preview; +https://touratlas.local)"
MAX_URL_LENGTH = 2048
TITLE_MAX_LENGTH = 255  # the tours.title column

# The user reads these (spec §8: a failed lookup shows the server's message and makes the image required).
NOT_ALLOWED = "This link points to a private or local network address and cannot be looked up"
NOT_HTTP = "Only http:// and https:// links can be looked up"
NOT_FOUND_HOST = "The link's host could not be found"
NOT_REACHABLE = "The page could not be reached"
TOO_SLOW = "The page took too long to answer"
TOO_MANY_REDIRECTS = "The link redirects too many times"
NOT_A_PAGE = "The link is not a web page"
NOTHING_FOUND = "The page has no title, description or image to show"
UNKNOWN_HOST = "Unknown host"
OWN_HOST_LINK = "This link is on your host {host}: choose {host} as the host"


# --------------------------------------------------------------------------- address policy


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, 6to4 or Teredo), if any:
    a router may deliver to it, so it must pass the IPv4 rules too."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    return None


def is_public_address(address: IPAddress) -> bool:
    """True for a globally routable unicast address. `is_global` alone is not enough: Python counts
    multicast and some IPv6 ranges that embed private IPv4 addresses as global."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # the IPv4 address itself, in IPv6 notation
            return is_public_address(address.ipv4_mapped)
        inner = embedded_ipv4(address)
        if inner is not None and not is_public_address(inner):
            return False
    return address.is_global and not (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )


@dataclass(frozen=True, slots=True)
class AddressPolicy:
    """Which addresses the fetcher may connect to: public ones, plus the explicitly allowed networks."""

    allowed_networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def from_settings(cls, networks: Iterable[str]) -> AddressPolicy:
        return cls(tuple(ipaddress.ip_network(network, strict=False) for network in networks))

    def explicitly_allowed(self, address: IPAddress) -> bool:
        candidates: list[IPAddress] = [address]
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            candidates.append(address.ipv4_mapped)
        return any(candidate in network for candidate in candidates for network in self.allowed_networks)

    def allows(self, address: IPAddress, port: int) -> bool:
        if self.explicitly_allowed(address):
            return True
        return is_public_address(address) and port in WEB_PORTS


def system_resolver(host: str, port: int) -> list[IPAddress]:
    """Every address the system resolver gives for the host (IP literals come back as themselves)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses: list[IPAddress] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        # An IPv6 sockaddr may carry a zone ('fe80::1%eth0'); the zone never makes an address public.
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    return addresses


# --------------------------------------------------------------------------- fetching


@dataclass(frozen=True, slots=True)
class FetchedPage:
    url: str  # after redirects
    content_type: str
    charset: str | None
    body: bytes
    truncated: bool  # the page was longer than the cap; only its start was read


@dataclass(frozen=True, slots=True)
class _Target:
    url: httpx.URL
    address: IPAddress

    @property
    def host_header(self) -> str:
        host = self.url.raw_host.decode("ascii")
        default_port = 443 if self.url.scheme == "https" else 80
        port = self.url.port or default_port
        return host if port == default_port else f"{host}:{port}"

    @property
    def pinned_url(self) -> httpx.URL:
        return self.url.copy_with(host=str(self.address))

    @property
    def extensions(self) -> dict[str, Any]:
        # TLS talks to the vetted address but sends and verifies the real host name.
        if self.url.scheme == "https":
            return {"sni_hostname": self.url.raw_host.decode("ascii")}
        return {}


class _Deadline:
    def __init__(self, seconds: float) -> None:
        self.ends_at = time.monotonic() + seconds

    def check(self) -> None:
        if time.monotonic() > self.ends_at:
            raise field_error("url", TOO_SLOW)


@dataclass
class SafeFetcher:
    policy: AddressPolicy = field(default_factory=AddressPolicy)
    resolver: Resolver = system_resolver
    read_timeout: float = READ_TIMEOUT_SECONDS
    connect_timeout: float = CONNECT_TIMEOUT_SECONDS
    deadline_seconds: float = DEADLINE_SECONDS
    max_redirects: int = MAX_REDIRECTS

    def fetch(self, url: str, *, accept: Sequence[str] = HTML_TYPES, max_bytes: int = MAX_PAGE_BYTES) -> FetchedPage:
        """GET the URL safely (see the module notes); raises BadRequest on `url` with a readable message."""
        deadline = _Deadline(self.deadline_seconds)
        current = parse_link(url)
        timeout = httpx.Timeout(self.read_timeout, connect=self.connect_timeout)
        # trust_env off: a proxy from the environment would connect to the host by name, not the vetted address.
        with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client:
            for _hop in range(self.max_redirects + 1):
                target = self._vet(current)
                deadline.check()
                with self._translate_errors(), self._open(client, target, accept) as response:
                    location = response.headers.get("location")
                    if response.status_code in REDIRECT_STATUSES and location:
                        current = parse_link(urljoin(str(current), location))
                        continue
                    return self._read(response, current, accept, max_bytes, deadline)
        raise field_error("url", TOO_MANY_REDIRECTS)

    def _vet(self, url: httpx.URL) -> _Target:
        host = url.raw_host.decode("ascii")
        port = url.port or (443 if url.scheme == "https" else 80)
        try:
            addresses = self.resolver(host.strip("[]"), port)
        except (OSError, UnicodeError) as exc:
            raise field_error("url", NOT_FOUND_HOST) from exc
        if not addresses:
            raise field_error("url", NOT_FOUND_HOST)
        # Every answer must pass: a mixed answer is how rebinding attacks hide a private address.
        if not all(self.policy.allows(address, port) for address in addresses):
            logger.info("discover refused %s: %s", host, ", ".join(map(str, addresses)))
            raise field_error("url", NOT_ALLOWED)
        return _Target(url=url, address=addresses[0])

    @contextmanager
    def _open(self, client: httpx.Client, target: _Target, accept: Sequence[str]) -> Iterator[httpx.Response]:
        headers = {
            "Host": target.host_header,
            "User-Agent": USER_AGENT,
            "Accept": ", ".join([*accept, "*/*;q=0.1"]),
            "Accept-Encoding": "gzip, deflate",  # decoded by _BoundedDecoder
        }
        with client.stream("GET", target.pinned_url, headers=headers, extensions=target.extensions) as response:
            yield response

    @contextmanager
    def _translate_errors(self) -> Iterator[None]:
        try:
            yield
        except httpx.TimeoutException as exc:
            raise field_error("url", TOO_SLOW) from exc
        except (httpx.HTTPError, httpx.InvalidURL, OSError) as exc:
            logger.info("discover could not fetch: %s", exc)
            raise field_error("url", NOT_REACHABLE) from exc

    def _read(
        self, response: httpx.Response, url: httpx.URL, accept: Sequence[str], max_bytes: int, deadline: _Deadline
    ) -> FetchedPage:
        if response.status_code >= 400:
            raise field_error("url", f"{NOT_REACHABLE} (it answered {response.status_code})")
        content_type, charset = _content_type(response.headers.get("content-type", ""))
        if content_type not in accept:
            raise field_error("url", f"{NOT_A_PAGE} ({content_type or 'no content type'})")
        decoder = _BoundedDecoder(response.headers.get("content-encoding", ""), max_bytes)
        for chunk in response.iter_raw():
            deadline.check()
            if decoder.feed(chunk):
                break  # the cap is reached: stop reading, the metadata lives in the head, at the start
        return FetchedPage(
            url=str(url), content_type=content_type, charset=charset, body=decoder.body, truncated=decoder.full
        )


class _BoundedDecoder:
    """Decodes the body (identity, gzip or deflate) without ever holding more than `limit` bytes:
    httpx's own decoder would inflate a whole chunk, and a compressed chunk of 64 KB can hold 64 MB."""

    def __init__(self, content_encoding: str, limit: int) -> None:
        encoding = content_encoding.strip().lower()
        if encoding in ("gzip", "x-gzip"):
            self._inflater: Any = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self._inflater = zlib.decompressobj(32 + zlib.MAX_WBITS)  # zlib or gzip header, detected
        elif encoding in ("", "identity"):
            self._inflater = None
        else:
            raise field_error("url", f"{NOT_REACHABLE} (unsupported content encoding {encoding})")
        self._limit = limit
        self._parts: list[bytes] = []
        self._size = 0

    @property
    def full(self) -> bool:
        return self._size >= self._limit

    @property
    def body(self) -> bytes:
        return b"".join(self._parts)

    def feed(self, chunk: bytes) -> bool:
        """Add a raw chunk; True once the cap is reached."""
        room = self._limit - self._size
        if self._inflater is None:
            data = chunk[:room]
        else:
            try:
                data = self._inflater.decompress(chunk, room)
            except zlib.error as exc:
                raise field_error("url", f"{NOT_REACHABLE} (a corrupt compressed answer)") from exc
        self._parts.append(data)
        self._size += len(data)
        return self.full


def parse_link(link: str) -> httpx.URL:
    """An absolute http(s) URL with a host and no credentials, or a BadRequest on `url`."""
    text = link.strip()
    if not text or len(text) > MAX_URL_LENGTH:
        raise field_error("url", NOT_HTTP if not text else "The link is too long")
    try:
        url = httpx.URL(text)
    except (httpx.InvalidURL, ValueError) as exc:
        raise field_error("url", NOT_HTTP) from exc
    if url.scheme not in ("http", "https") or not url.raw_host:
        raise field_error("url", NOT_HTTP)
    if url.userinfo:
        raise field_error("url", "Links with a user name or password cannot be looked up")
    return url


def _content_type(header: str) -> tuple[str, str | None]:
    media_type, _, parameters = header.partition(";")
    match = re.search(r"charset\s*=\s*\"?([\w.:-]+)", parameters, re.IGNORECASE)
    return media_type.strip().lower(), match.group(1) if match else None


# --------------------------------------------------------------------------- parsing


@dataclass(frozen=True, slots=True)
class PostalAddress:
    street: str | None = None
    locality: str | None = None
    region: str | None = None
    postcode: str | None = None
    country: str | None = None

    def search_texts(self) -> list[str]:
        """Place searches from the most to the least specific; the street is left out because the
        offline gazetteer knows cities, not streets, and a street name would match some town."""
        candidates = [
            (self.locality, self.region, self.country),
            (self.locality, self.country),
            (self.locality,),
            (self.region, self.country),
            (self.country,),
        ]
        texts: list[str] = []
        for parts in candidates:
            if all(parts):
                text = ", ".join(part for part in parts if part)
                if text not in texts:
                    texts.append(text)
        return texts


@dataclass(frozen=True, slots=True)
class PageMetadata:
    title: str = ""
    description: str = ""
    image: str = ""
    oembed_url: str | None = None
    coordinates: LngLat | None = None
    address: PostalAddress | None = None


# OpenGraph first (what providers set for link previews), then Twitter cards, then plain HTML.
TITLE_KEYS = ("og:title", "twitter:title")
DESCRIPTION_KEYS = ("og:description", "twitter:description", "description")
IMAGE_KEYS = ("og:image:secure_url", "og:image", "og:image:url", "twitter:image", "twitter:image:src")
LATITUDE_KEYS = ("og:latitude", "place:location:latitude", "og:location:latitude")
LONGITUDE_KEYS = ("og:longitude", "place:location:longitude", "og:location:longitude")
OEMBED_LINK_TYPES = ("application/json+oembed",)
_STRAINER = SoupStrainer(["meta", "link", "script", "title"])


def parse_page(body: bytes, base_url: str, charset: str | None = None) -> PageMetadata:
    soup = BeautifulSoup(body, "html.parser", parse_only=_STRAINER, from_encoding=charset)
    meta = _meta_values(soup)
    linked = _json_ld_nodes(soup)
    coordinates = _meta_coordinates(meta) or _json_ld_coordinates(linked)
    return PageMetadata(
        title=_clip(
            _first(meta, TITLE_KEYS) or _json_ld_text(linked, ("name", "headline")) or _title(soup), TITLE_MAX_LENGTH
        ),
        description=_clip(
            _first(meta, DESCRIPTION_KEYS) or _json_ld_text(linked, ("description",)), DESCRIPTION_MAX_LENGTH
        ),
        image=_absolute_http(_first(meta, IMAGE_KEYS) or _json_ld_image(linked), base_url),
        oembed_url=_oembed_link(soup, base_url),
        coordinates=coordinates,
        address=_meta_address(meta) or _json_ld_address(linked),
    )


def _meta_values(soup: BeautifulSoup) -> dict[str, str]:
    """meta property/name → content; the first occurrence wins (OpenGraph lists the main image first)."""
    values: dict[str, str] = {}
    for tag in soup.find_all("meta"):
        key = _attribute(tag, "property") or _attribute(tag, "name") or _attribute(tag, "itemprop")
        content = _attribute(tag, "content")
        if key and content and key.lower() not in values:
            values[key.lower()] = content
    return values


def _attribute(tag: Tag, name: str) -> str:
    value = tag.get(name)
    if isinstance(value, list):
        value = " ".join(value)
    return (value or "").strip()


def _first(values: dict[str, str], keys: Sequence[str]) -> str:
    return next((values[key] for key in keys if values.get(key)), "")


def _title(soup: BeautifulSoup) -> str:
    tag = soup.find("title")
    return tag.get_text() if tag else ""


def _clip(text: str, limit: int) -> str:
    squashed = re.sub(r"\s+", " ", text).strip()
    if len(squashed) <= limit:
        return squashed
    return squashed[: limit - 1].rstrip() + "…"


def _absolute_http(link: str, base_url: str) -> str:
    if not link:
        return ""
    absolute = urljoin(base_url, link.strip())
    return absolute if absolute.startswith(("http://", "https://")) else ""


def _oembed_link(soup: BeautifulSoup, base_url: str) -> str | None:
    for tag in soup.find_all("link"):
        if _attribute(tag, "type").lower() in OEMBED_LINK_TYPES and _attribute(tag, "href"):
            return _absolute_http(_attribute(tag, "href"), base_url) or None
    return None


def _meta_coordinates(meta: dict[str, str]) -> LngLat | None:
    latitude, longitude = _first(meta, LATITUDE_KEYS), _first(meta, LONGITUDE_KEYS)
    if latitude and longitude:
        return _coordinates(latitude, longitude)
    # <meta name="geo.position" content="lat;lng"> and <meta name="ICBM" content="lat, lng">
    position = meta.get("geo.position") or meta.get("icbm")
    if position:
        parts = re.split(r"[;,]\s*", position.strip())
        if len(parts) == 2:
            return _coordinates(parts[0], parts[1])
    return None


def _coordinates(latitude: object, longitude: object) -> LngLat | None:
    try:
        lat, lng = float(str(latitude).strip()), float(str(longitude).strip())
    except ValueError:
        return None
    if not (math.isfinite(lat) and math.isfinite(lng)) or not (-90 <= lat <= 90 and -180 <= lng <= 180):
        return None
    if lat == 0 and lng == 0:
        return None  # 'null island': an unset value, not a place
    return (lng, lat)


def _meta_address(meta: dict[str, str]) -> PostalAddress | None:
    address = PostalAddress(
        street=meta.get("og:street-address") or meta.get("place:location:street-address"),
        locality=meta.get("og:locality") or meta.get("place:location:locality"),
        region=meta.get("og:region") or meta.get("place:location:region"),
        postcode=meta.get("og:postal-code"),
        country=meta.get("og:country-name") or meta.get("place:location:country"),
    )
    return address if address.locality or address.country else None


# ---- JSON-LD (schema.org)


def _json_ld_nodes(soup: BeautifulSoup) -> list[dict[str, Any]]:
    """Every object of every JSON-LD block, depth first (a page may nest its Place in an event, a
    product or an @graph). A block that is not valid JSON is skipped, as browsers do."""
    nodes: list[dict[str, Any]] = []
    for script in soup.find_all("script"):
        if _attribute(script, "type").lower() != "application/ld+json":
            continue
        try:
            document = json.loads(script.get_text())
        except ValueError:
            continue
        nodes.extend(_walk(document))
    return nodes


def _walk(value: object, depth: int = 0) -> Iterator[dict[str, Any]]:
    if depth > 12:
        return
    if isinstance(value, dict):
        yield value
        for child in value.values():
            yield from _walk(child, depth + 1)
    elif isinstance(value, list):
        for child in value:
            yield from _walk(child, depth + 1)


def _types(node: dict[str, Any]) -> set[str]:
    kind = node.get("@type", [])
    kinds = kind if isinstance(kind, list) else [kind]
    return {str(item).rsplit("/", 1)[-1] for item in kinds}


def _json_ld_text(nodes: list[dict[str, Any]], keys: Sequence[str]) -> str:
    # The top-level thing describes the page; nested objects (an author, an offer) come later.
    for node in nodes:
        if _types(node) & {"PostalAddress", "GeoCoordinates", "ImageObject", "Person", "Organization"}:
            continue
        for key in keys:
            value = node.get(key)
            if isinstance(value, str) and value.strip():
                return value
    return ""


def _json_ld_image(nodes: list[dict[str, Any]]) -> str:
    for node in nodes:
        image = node.get("image") or node.get("thumbnailUrl")
        if isinstance(image, list):
            image = image[0] if image else None
        if isinstance(image, dict):
            image = image.get("url") or image.get("contentUrl")
        if isinstance(image, str) and image.strip():
            return image
    return ""


def _json_ld_coordinates(nodes: list[dict[str, Any]]) -> LngLat | None:
    for node in nodes:
        if "latitude" in node and "longitude" in node:
            coordinates = _coordinates(node["latitude"], node["longitude"])
            if coordinates:
                return coordinates
    return None


def _json_ld_address(nodes: list[dict[str, Any]]) -> PostalAddress | None:
    for node in nodes:
        if "PostalAddress" not in _types(node) and not ({"addressLocality", "addressCountry"} & node.keys()):
            continue
        address = PostalAddress(
            street=_text_of(node.get("streetAddress")),
            locality=_text_of(node.get("addressLocality")),
            region=_text_of(node.get("addressRegion")),
            postcode=_text_of(node.get("postalCode")),
            country=_text_of(node.get("addressCountry")),
        )
        if address.locality or address.country:
            return address
    return None


def _text_of(value: object) -> str | None:
    """A JSON-LD value read as text: a string, or the name of an object ({"@type": "Country", "name": "France"})."""
    if isinstance(value, dict):
        value = value.get("name")
    if isinstance(value, str | int) and str(value).strip():
        return str(value).strip()
    return None


# --------------------------------------------------------------------------- the lookup


@dataclass(frozen=True, slots=True)
class Discovery:
    title: str
    description: str
    image: str
    address_id: str | None = None
    address_str: str | None = None
    # The caller's own (white-label) host the link is on: the media form's white-label hint.
    host: Vendor | None = None


def discover(
    db: Session,
    geocoder: Geocoder,
    fetcher: SafeFetcher,
    *,
    url: str,
    vendor_name: str | None,
    user_id: int | None = None,
) -> Discovery:
    """What the Add media form fills in from a provider link: title, description, image and address,
    and the caller's own host the link is on, if any."""
    own_host = own_host_of_link(db, user_id, url.strip()) if user_id is not None else None
    _check_vendor_format(db, vendor_name, url, own_host)
    page = fetcher.fetch(url)
    metadata = parse_page(page.body, page.url, page.charset)
    if metadata.oembed_url and not (metadata.title and metadata.image):
        metadata = _with_oembed(fetcher, metadata)
    if not (metadata.title or metadata.description or metadata.image):
        raise field_error("url", NOTHING_FOUND)
    address = _resolve_address(geocoder, metadata)
    return Discovery(
        title=metadata.title,
        description=metadata.description,
        image=metadata.image,
        address_id=address.address_id if address else None,
        address_str=address.address_str if address else None,
        host=own_host,
    )


def own_host_of_link(db: Session, user_id: int, link: str) -> Vendor | None:
    """Spec §2 "white-label host hint": the caller's own custom host (approved, or waiting and so
    usable by its owner) whose link format the link is in."""
    candidates = db.scalars(
        select(Vendor)
        .where(
            Vendor.is_custom.is_(True),
            Vendor.owner_user_id == user_id,
            Vendor.status.in_((VendorStatus.approved, VendorStatus.pending)),
        )
        .order_by(Vendor.status, Vendor.id)
    )
    return next((vendor for vendor in candidates if check_link_format(vendor, link)), None)


def _check_vendor_format(db: Session, vendor_name: str | None, url: str, own_host: Vendor | None) -> None:
    """The link must be in the chosen host's format, by the same rule as saving the tour (spec §5),
    which also keeps the lookup to provider pages (white-label hosts: any http(s) link). A link on
    one of the caller's own hosts, looked up under another host, is refused with that host's name."""
    if not vendor_name or not vendor_name.strip():
        return
    vendor = db.scalars(select(Vendor).where(func.lower(Vendor.name) == vendor_name.strip().lower())).first()
    if vendor is None:
        raise field_error("vendor_name", UNKNOWN_HOST)
    if not check_link_format(vendor, url.strip()):
        if own_host is not None:
            raise field_error("url", OWN_HOST_LINK.format(host=own_host.name))
        raise field_error("url", LINK_FORMAT)


def _with_oembed(fetcher: SafeFetcher, metadata: PageMetadata) -> PageMetadata:
    """Fill what the page lacks from its oEmbed answer. It is an extra: any failure leaves the page's own data."""
    assert metadata.oembed_url is not None
    try:
        answer = fetcher.fetch(metadata.oembed_url, accept=OEMBED_TYPES, max_bytes=MAX_OEMBED_BYTES)
        data = json.loads(answer.body)
    except (BadRequest, ValueError) as exc:
        logger.info("oEmbed lookup skipped for %s: %s", metadata.oembed_url, exc)
        return metadata
    if not isinstance(data, dict):
        return metadata
    title = metadata.title or _clip(str(data.get("title") or ""), TITLE_MAX_LENGTH)
    thumbnail = data.get("thumbnail_url") or (data.get("url") if data.get("type") == "photo" else None)
    image = metadata.image or _absolute_http(str(thumbnail or ""), metadata.oembed_url)
    description = metadata.description or _clip(str(data.get("description") or ""), DESCRIPTION_MAX_LENGTH)
    return PageMetadata(
        title=title,
        description=description,
        image=image,
        oembed_url=metadata.oembed_url,
        coordinates=metadata.coordinates,
        address=metadata.address,
    )


def _resolve_address(geocoder: Geocoder, metadata: PageMetadata) -> locations.Address | None:
    """The page's place as an address of the locations domain: coordinates first (exact), then the
    postal address searched by name. A geocoder that cannot answer costs only the address."""
    try:
        if metadata.coordinates is not None:
            return locations.find_address(geocoder, address_id=None, coordinates=metadata.coordinates)
        if metadata.address is not None:
            for text in metadata.address.search_texts():
                places = locations.search_locations(geocoder, text, limit=1)
                if places:
                    return locations.address_of(places[0])
    except AppError as exc:
        logger.info("discover found no address: %s", exc.message)
    return None
