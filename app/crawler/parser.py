"""What the crawler reads from what it fetched: sitemaps (index or URL set, plain or gzipped) with
defusedxml, the links of an HTML page, and a tour page's metadata with the very parser of the add-tour
link lookup (app.tours.link_lookup.parse_page), so a crawled tour reads as the form would fill it.

Sitemaps are parsed here rather than by ultimate-sitemap-parser because that package fetches by
itself (with requests), which would bypass the SSRF guard every crawler request goes through; here the
guarded client fetches, and this module only parses bytes.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from bs4 import BeautifulSoup
from bs4.filter import SoupStrainer
from defusedxml import ElementTree  # type: ignore[import-untyped]
from defusedxml.common import DefusedXmlException  # type: ignore[import-untyped]

from app.tours.link_lookup import PageMetadata, parse_page

GZIP_MAGIC = b"\x1f\x8b"
MAX_LINKS_PER_PAGE = 5000
_LINKS = SoupStrainer("a")


@dataclass(frozen=True, slots=True)
class Sitemap:
    pages: list[str] = field(default_factory=list)
    sitemaps: list[str] = field(default_factory=list)  # children of a sitemap index


class NotASitemap(ValueError):
    pass


def parse_sitemap(body: bytes, max_bytes: int) -> Sitemap:
    """A <urlset> gives pages, a <sitemapindex> child sitemaps; a gzipped file (sitemap.xml.gz, served
    as application/gzip or as a plain file) is inflated first, to at most `max_bytes`."""
    if body.startswith(GZIP_MAGIC):
        body = _gunzip(body, max_bytes)
    try:
        root = ElementTree.fromstring(body)
    except (ElementTree.ParseError, DefusedXmlException) as exc:
        raise NotASitemap(f"not a sitemap: {exc}") from exc
    kind = _local_name(root.tag)
    locations = [
        (element.text or "").strip()
        for element in root.iter()
        if _local_name(element.tag) == "loc" and (element.text or "").strip()
    ]
    if kind == "urlset":
        return Sitemap(pages=locations)
    if kind == "sitemapindex":
        return Sitemap(sitemaps=locations)
    raise NotASitemap(f"not a sitemap: <{kind}>")


def _gunzip(body: bytes, max_bytes: int) -> bytes:
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        data = inflater.decompress(body, max_bytes)
    except zlib.error as exc:
        raise NotASitemap("a corrupt gzipped sitemap") from exc
    if inflater.unconsumed_tail:
        raise NotASitemap("the sitemap is larger than the sitemaps protocol allows")
    return data


def _local_name(tag: object) -> str:
    return str(tag).rsplit("}", 1)[-1]


def page_links(body: bytes, base_url: str, charset: str | None) -> list[str]:
    """The http(s) links of an HTML page, absolute, without fragments, in page order."""
    soup = BeautifulSoup(body, "html.parser", parse_only=_LINKS, from_encoding=charset)
    links: list[str] = []
    for anchor in soup.find_all("a"):
        href = anchor.get("href")
        if not isinstance(href, str) or not href.strip():
            continue
        absolute = urljoin(base_url, href.strip()).split("#", 1)[0]
        if urlsplit(absolute).scheme in ("http", "https"):
            links.append(absolute)
        if len(links) >= MAX_LINKS_PER_PAGE:
            break
    return links


def tour_metadata(body: bytes, url: str, charset: str | None) -> PageMetadata:
    return parse_page(body, url, charset)
