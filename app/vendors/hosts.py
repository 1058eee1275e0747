"""The rules of a host request (spec §2 "custom provider request", §3 "Custom provider", §5 "Provider
link heading and sample tour must include {host}"), and what an accepted request makes of it.

A request names the host (a DNS name, e.g. tours.studio.example), a link heading and a sample tour,
both written with `{host}` where the host name goes: `https://{host}/tours/` and
`https://{host}/tours/lobby`. The heading is the start every tour link on the host has; the sample
is one such link. From them the host's record gets its website, the link field's placeholder and
the link pattern that tour links are matched with (app/tours/rules.check_link_format).

The host name is checked so that it can never point the server at itself or a private network
(SSRF): a DNS name only (no IP literal, no port, no credentials, no local-only suffix), and every
address it resolves to must be public (or inside DISCOVER_ALLOWED_NETWORKS, as for the link lookup,
which fetches tours of the host later through the same guard).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from app.tours.link_lookup import AddressPolicy, IPAddress

Resolver = Callable[[str, int], list[IPAddress]]

HOST_PLACEHOLDER = "{host}"
MUST_INCLUDE_HOST = "Provider link heading and sample tour must include {host}"
HOST_REQUIRED = "Enter the host name, e.g. tours.example.com"
HOST_INVALID = "Enter a host name such as tours.example.com (no https://, path or port)"
HOST_IP_LITERAL = "Enter the host's name, not an IP address"
HOST_LOCAL = "The host must be a public internet name"
HOST_NOT_FOUND = "The host name could not be found"
HOST_PRIVATE = "The host points to a private or local network address"
LINK_NOT_WEB = "Write a web link that starts with https://{host} (or http://{host})"
LINK_OTHER_HOST = "The link must be on the host itself: write it as https://{host}/…"
SAMPLE_NOT_UNDER_HEADING = "The sample tour must start with the link heading"

# Names that never reach the public internet (RFC 6761, RFC 6762, RFC 8375 and common private zones).
LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".intranet", ".lan", ".home", ".corp", ".home.arpa", ".test")
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_TLD = re.compile(r"^(?:[a-z]{2,63}|xn--[a-z0-9-]{2,59})$")
HOST_MAX_LENGTH = 253


def normalise_host(raw: str) -> str:
    """Lower case, IDNA (punycode) for non-ASCII names, no trailing dot."""
    host = raw.strip().lower().rstrip(".")
    try:
        return host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError:
        return host


def host_problem(host: str) -> str | None:
    """The host name's syntax: a public DNS name of two labels at least."""
    if not host:
        return HOST_REQUIRED
    if len(host) > HOST_MAX_LENGTH or any(char in host for char in "/:@?#[] \t"):
        try:
            ipaddress.ip_address(host.strip("[]"))
            return HOST_IP_LITERAL
        except ValueError:
            return HOST_INVALID
    try:
        ipaddress.ip_address(host)
        return HOST_IP_LITERAL
    except ValueError:
        pass
    labels = host.split(".")
    if len(labels) < 2 or not all(_LABEL.match(label) for label in labels) or not _TLD.match(labels[-1]):
        return HOST_INVALID
    if host == "localhost" or any(host.endswith(suffix) for suffix in LOCAL_SUFFIXES):
        return HOST_LOCAL
    return None


def address_problem(host: str, resolver: Resolver, policy: AddressPolicy) -> str | None:
    """Where the name points: it must resolve, and only to addresses the link lookup may fetch."""
    try:
        addresses = resolver(host, 443)
    except (OSError, UnicodeError):  # socket.gaierror is an OSError
        return HOST_NOT_FOUND
    if not addresses:
        return HOST_NOT_FOUND
    if not all(policy.allows(address, 443) for address in addresses):
        return HOST_PRIVATE
    return None


def link_problem(template: str, host: str) -> str | None:
    """A heading or sample tour: it carries {host}, and with the host filled in it is a web link on
    exactly that host."""
    if HOST_PLACEHOLDER not in template:
        return MUST_INCLUDE_HOST
    link = fill(template, host)
    parts = urlsplit(link)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(char.isspace() for char in link):
        return LINK_NOT_WEB
    if "@" in parts.netloc:
        return LINK_NOT_WEB
    if (parts.hostname or "") not in (host, f"www.{host}"):
        return LINK_OTHER_HOST
    return None


def fill(template: str, host: str) -> str:
    return template.strip().replace(HOST_PLACEHOLDER, host)


@dataclass(frozen=True, slots=True)
class HostRecord:
    """What an accepted request writes on the host's row."""

    website: str
    link_header: str
    link_pattern: str


def host_record(host: str, link_heading: str) -> HostRecord:
    """The host's website (scheme and host of the heading), the link field's placeholder (the heading
    with the host filled in) and the pattern of its tour links: the heading's path on the host, with
    or without www., over http or https, on any port, followed by anything."""
    heading = urlsplit(fill(link_heading, host))
    path = heading.path
    after_host = re.escape(path) + r"\S*" if path and path != "/" else r"(?:[/?#]\S*)?"
    pattern = r"^https?://(?:www\.)?" + re.escape(host) + r"(?::\d{1,5})?" + after_host + "$"
    return HostRecord(website=f"{heading.scheme}://{host}", link_header=fill(link_heading, host), link_pattern=pattern)
