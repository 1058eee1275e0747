"""The link lookup's fetcher against SSRF: address rules, URL rules, DNS pinning, redirects, size,
time and content-type limits, against the local fake provider (tests/fakes/tour_pages.py)."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterator

import httpx
import pytest

from app.core.errors import BadRequest
from app.tours.link_lookup import (
    NOT_A_PAGE,
    NOT_ALLOWED,
    NOT_FOUND_HOST,
    NOT_HTTP,
    NOT_REACHABLE,
    TOO_MANY_REDIRECTS,
    TOO_SLOW,
    AddressPolicy,
    IPAddress,
    SafeFetcher,
    _Target,
    is_public_address,
    parse_link,
)
from tests.fakes.tour_pages import HUGE_PAGE_BYTES, TourPages, running_tour_pages

LOCAL = AddressPolicy.from_settings(["127.0.0.1/32"])


@pytest.fixture(scope="module")
def pages() -> Iterator[TourPages]:
    with running_tour_pages() as fake:
        yield fake


def refusal(fetcher: SafeFetcher, url: str) -> str:
    with pytest.raises(BadRequest) as caught:
        fetcher.fetch(url)
    assert list(caught.value.fields) == ["url"]
    return caught.value.message


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.8.9.10",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.64.0.1",  # carrier-grade NAT
        "0.0.0.0",
        "224.0.0.1",  # multicast: Python calls it global
        "239.255.255.250",
        "240.0.0.1",
        "255.255.255.255",
        "192.0.2.10",  # documentation
        "198.18.0.1",  # benchmarking
        "::",
        "::1",
        "fe80::1",
        "fc00::1",
        "fd12:3456::1",
        "ff02::1",
        "::ffff:127.0.0.1",  # IPv4-mapped
        "::ffff:10.0.0.1",
        "::ffff:169.254.169.254",
        "2002:7f00:1::1",  # 6to4 around 127.0.0.1: Python calls it global
        "2002:a00:1::1",  # 6to4 around 10.0.0.1
        "64:ff9b::7f00:1",  # NAT64 around 127.0.0.1
        "2001:db8::1",  # documentation
    ],
)
def test_non_public_addresses_are_refused(address: str) -> None:
    ip = ipaddress.ip_address(address)
    assert not is_public_address(ip)
    assert not AddressPolicy().allows(ip, 80)


@pytest.mark.parametrize("address", ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
def test_public_addresses_pass_on_web_ports_only(address: str) -> None:
    ip = ipaddress.ip_address(address)
    assert is_public_address(ip)
    assert AddressPolicy().allows(ip, 443) and AddressPolicy().allows(ip, 8080)
    assert not AddressPolicy().allows(ip, 22) and not AddressPolicy().allows(ip, 6379)


def test_allowed_networks_open_exactly_those_addresses_on_any_port() -> None:
    policy = AddressPolicy.from_settings(["127.0.0.1/32", "10.8.0.0/16"])
    assert policy.allows(ipaddress.ip_address("127.0.0.1"), 51234)
    assert policy.allows(ipaddress.ip_address("::ffff:127.0.0.1"), 80)
    assert policy.allows(ipaddress.ip_address("10.8.3.4"), 80)
    assert not policy.allows(ipaddress.ip_address("127.0.0.2"), 80)
    assert not policy.allows(ipaddress.ip_address("10.9.0.1"), 80)
    assert not policy.allows(ipaddress.ip_address("::1"), 80)


@pytest.mark.parametrize(
    "link",
    [
        "ftp://example.com/tour",
        "file:///etc/passwd",
        "gopher://127.0.0.1:6379/_INFO",
        "javascript:alert(1)",
        "//example.com/tour",
        "example.com/tour",
        "http://",
        "   ",
        "http://" + "a" * 2100 + ".com/",
    ],
)
def test_only_absolute_http_links_are_looked_up(link: str) -> None:
    with pytest.raises(BadRequest) as caught:
        parse_link(link)
    assert caught.value.fields.keys() == {"url"}


def test_credentials_in_the_link_are_refused() -> None:
    with pytest.raises(BadRequest, match="user name or password"):
        parse_link("https://admin:secret@example.com/")


def test_loopback_is_refused_by_default(pages: TourPages) -> None:
    assert refusal(SafeFetcher(), pages.url("/tours/louvre")) == NOT_ALLOWED
    assert refusal(SafeFetcher(), pages.url("/tours/louvre").replace("127.0.0.1", "localhost")) == NOT_ALLOWED
    # Other spellings of 127.0.0.1 resolve to it, and the resolved address is what is checked.
    for spelling in ("2130706433", "0x7f.0.0.1", "127.1"):
        assert refusal(SafeFetcher(), f"http://{spelling}:{pages.port}/tours/louvre") == NOT_ALLOWED
    assert pages.hits["/tours/louvre"] == 0


def test_an_allowed_network_is_fetched(pages: TourPages) -> None:
    page = SafeFetcher(policy=LOCAL).fetch(pages.url("/tours/louvre"))
    assert page.content_type == "text/html" and page.charset == "utf-8"
    assert b"og:title" in page.body and not page.truncated


def test_the_vetted_address_is_the_one_connected_to(pages: TourPages) -> None:
    """The host name goes to the resolver once; the connection uses its answer, with the name in the
    Host header. A name no DNS knows reaching the fake proves nobody resolved it again."""
    asked: list[str] = []

    def resolver(host: str, _port: int) -> list[IPAddress]:
        asked.append(host)
        return [ipaddress.ip_address("127.0.0.1")]

    page = SafeFetcher(policy=LOCAL, resolver=resolver).fetch(f"http://tours.invalid:{pages.port}/tours/krakow")
    assert b"Wawel" in page.body
    assert asked == ["tours.invalid"]
    assert pages.host_headers["/tours/krakow"] == f"tours.invalid:{pages.port}"
    assert page.url == f"http://tours.invalid:{pages.port}/tours/krakow"


def test_a_mixed_dns_answer_is_refused(pages: TourPages) -> None:
    def rebinding(_host: str, _port: int) -> list[IPAddress]:
        return [ipaddress.ip_address("93.184.215.14"), ipaddress.ip_address("10.0.0.7")]

    assert refusal(SafeFetcher(resolver=rebinding), "http://rebind.invalid/") == NOT_ALLOWED


def test_every_redirect_hop_is_vetted(pages: TourPages) -> None:
    fetcher = SafeFetcher(policy=LOCAL)
    assert refusal(fetcher, pages.url("/redirect-private")) == NOT_ALLOWED
    assert refusal(fetcher, pages.url("/redirect?to=http://169.254.169.254/latest/meta-data/")) == NOT_ALLOWED
    assert refusal(fetcher, pages.url("/redirect?to=file:///etc/passwd")) == NOT_HTTP
    followed = fetcher.fetch(pages.url("/redirect-to-louvre"))
    assert followed.url == pages.url("/tours/louvre") and b"Louvre" in followed.body


def test_a_redirect_is_vetted_against_the_allow_list_too(pages: TourPages) -> None:
    """127.0.0.1 is allowed; its redirect to another loopback address (127.0.0.2) is not."""
    fetcher = SafeFetcher(policy=LOCAL)
    assert refusal(fetcher, pages.url(f"/redirect?to=http://127.0.0.2:{pages.port}/tours/louvre")) == NOT_ALLOWED


def test_redirects_stop_after_five(pages: TourPages) -> None:
    before = pages.hits["/redirect-loop"]
    assert refusal(SafeFetcher(policy=LOCAL), pages.url("/redirect-loop")) == TOO_MANY_REDIRECTS
    assert pages.hits["/redirect-loop"] - before == 6  # the first request and five redirects


def test_only_pages_are_read(pages: TourPages) -> None:
    fetcher = SafeFetcher(policy=LOCAL)
    assert refusal(fetcher, pages.url("/files/tour.pdf")) == f"{NOT_A_PAGE} (application/pdf)"
    assert refusal(fetcher, pages.url("/images/louvre.jpg")) == f"{NOT_A_PAGE} (image/jpeg)"
    assert refusal(fetcher, pages.url("/missing")) == f"{NOT_REACHABLE} (it answered 404)"


def test_a_huge_page_is_read_up_to_the_cap_only(pages: TourPages) -> None:
    page = SafeFetcher(policy=LOCAL).fetch(pages.url("/huge"), max_bytes=256 * 1024)
    assert page.truncated and len(page.body) == 256 * 1024
    assert b"Huge tour page" in page.body
    time.sleep(0.3)  # the server notices the closed connection
    assert pages.bytes_sent["/huge"] < HUGE_PAGE_BYTES


def test_a_compressed_bomb_is_inflated_up_to_the_cap_only(pages: TourPages) -> None:
    page = SafeFetcher(policy=LOCAL).fetch(pages.url("/gzip-bomb"), max_bytes=100_000)
    assert page.truncated and len(page.body) == 100_000 and page.body.startswith(b"<html><head><title>Bomb")


def test_a_slow_page_times_out(pages: TourPages) -> None:
    fetcher = SafeFetcher(policy=LOCAL, read_timeout=0.5)
    started = time.monotonic()
    assert refusal(fetcher, pages.url("/slow?seconds=3")) == TOO_SLOW
    assert time.monotonic() - started < 2.5


def test_a_dripping_page_is_cut_at_the_deadline(pages: TourPages) -> None:
    """Each byte arrives within the read timeout, so only the overall deadline stops it."""
    fetcher = SafeFetcher(policy=LOCAL, read_timeout=2.0, deadline_seconds=1.0)
    started = time.monotonic()
    assert refusal(fetcher, pages.url("/drip")) == TOO_SLOW
    assert time.monotonic() - started < 4.0


def test_unknown_hosts_and_closed_ports_are_readable_errors(pages: TourPages) -> None:
    assert refusal(SafeFetcher(), "http://no-such-host.invalid/") == NOT_FOUND_HOST
    closed = SafeFetcher(policy=LOCAL, connect_timeout=1.0)
    with running_tour_pages() as other:
        port = other.port
    assert refusal(closed, f"http://127.0.0.1:{port}/") == NOT_REACHABLE


def test_https_keeps_the_host_name_for_sni_and_certificate_checks() -> None:
    target = _Target(url=httpx.URL("https://Tours.Example:8443/t/1"), address=ipaddress.ip_address("203.0.113.9"))
    assert str(target.pinned_url) == "https://203.0.113.9:8443/t/1"
    assert target.extensions == {"sni_hostname": "tours.example"}
    assert target.host_header == "tours.example:8443"
    v6 = _Target(url=httpx.URL("http://example.com/"), address=ipaddress.ip_address("2606:4700::1"))
    assert str(v6.pinned_url) == "http://[2606:4700::1]/" and v6.host_header == "example.com" and v6.extensions == {}
