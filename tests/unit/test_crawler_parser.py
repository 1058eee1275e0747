"""The crawler's reading of sitemaps and pages (app/crawler/parser.py) and its per-host throttle."""

from __future__ import annotations

import gzip
import itertools
import threading
import time

import pytest

from app.crawler.fetcher import HostThrottle
from app.crawler.parser import NotASitemap, page_links, parse_sitemap

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def test_a_url_set_gives_pages_and_an_index_gives_sitemaps() -> None:
    urlset = f"<urlset {NS}><url><loc> https://p.example/t/1 </loc></url><url><loc>https://p.example/t/2</loc></url></urlset>"
    assert parse_sitemap(urlset.encode(), 1 << 20).pages == ["https://p.example/t/1", "https://p.example/t/2"]
    index = f"<sitemapindex {NS}><sitemap><loc>https://p.example/a.xml.gz</loc></sitemap></sitemapindex>"
    parsed = parse_sitemap(index.encode(), 1 << 20)
    assert parsed.sitemaps == ["https://p.example/a.xml.gz"] and parsed.pages == []


def test_a_gzipped_sitemap_is_inflated_within_the_cap() -> None:
    urlset = f"<urlset {NS}><url><loc>https://p.example/t/1</loc></url></urlset>".encode()
    assert parse_sitemap(gzip.compress(urlset), 1 << 20).pages == ["https://p.example/t/1"]
    with pytest.raises(NotASitemap, match="larger"):
        parse_sitemap(gzip.compress(urlset + b" " * 10_000), 1_000)


def test_entity_expansion_and_other_documents_are_refused() -> None:
    bomb = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><urlset>&b;</urlset>'
    with pytest.raises(NotASitemap):
        parse_sitemap(bomb, 1 << 20)
    with pytest.raises(NotASitemap):
        parse_sitemap(b"<html><body>not a sitemap</body></html>", 1 << 20)
    with pytest.raises(NotASitemap):
        parse_sitemap(b"\x1f\x8bnot gzip at all", 1 << 20)


def test_page_links_are_absolute_http_without_fragments() -> None:
    body = (
        b'<a href="/t/1#x">1</a><a href="mailto:a@b.c">m</a><a href="t/2">2</a><a href="javascript:x">j</a><a>none</a>'
    )
    assert page_links(body, "https://p.example/list/", None) == ["https://p.example/t/1", "https://p.example/list/t/2"]


def test_the_throttle_spaces_starts_and_caps_concurrency() -> None:
    throttle = HostThrottle(interval=0.05, concurrency=2)
    starts: list[float] = []
    inside = 0
    most = 0
    lock = threading.Lock()

    def request() -> None:
        nonlocal inside, most
        with throttle.turn("p.example"):
            with lock:
                starts.append(time.monotonic())
                inside += 1
                most = max(most, inside)
            time.sleep(0.12)
            with lock:
                inside -= 1

    threads = [threading.Thread(target=request) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    starts.sort()
    assert most <= 2
    assert min(later - earlier for earlier, later in itertools.pairwise(starts)) >= 0.045
