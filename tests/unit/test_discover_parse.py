"""Reading a provider page: OpenGraph, Twitter cards, JSON-LD, oEmbed links and places."""

from __future__ import annotations

import json
from typing import Any

from app.tours.link_lookup import PostalAddress, parse_page

BASE = "https://tours.example.com/t/42"


def page(head: str) -> bytes:
    return f"<!doctype html><html><head>{head}</head><body><p>player</p></body></html>".encode()


def json_ld(document: Any) -> str:
    return f'<script type="application/ld+json">{json.dumps(document)}</script>'


def test_opengraph_comes_first_and_entities_are_decoded() -> None:
    found = parse_page(
        page(
            "<title>Plain title</title>"
            '<meta property="og:title" content="Caf&eacute; &amp; Bar  in 360&#176;">'
            '<meta name="twitter:title" content="Twitter title">'
            '<meta property="og:description" content="  Two\n floors,   a terrace. ">'
            '<meta name="description" content="Meta description">'
            '<meta property="og:image" content="https://cdn.example.com/a.jpg">'
            '<meta property="og:image" content="https://cdn.example.com/second.jpg">'
        ),
        BASE,
    )
    assert found.title == "Café & Bar in 360°"
    assert found.description == "Two floors, a terrace."
    assert found.image == "https://cdn.example.com/a.jpg"  # the first image is the main one


def test_twitter_cards_json_ld_and_the_title_tag_fill_what_opengraph_lacks() -> None:
    twitter = parse_page(
        page(
            '<meta name="twitter:title" content="T title"><meta name="twitter:image" content="/img/t.png">'
            '<meta name="description" content="Plain description">'
        ),
        BASE,
    )
    assert (twitter.title, twitter.description, twitter.image) == (
        "T title",
        "Plain description",
        "https://tours.example.com/img/t.png",
    )
    linked = parse_page(
        page(json_ld({"@type": "VirtualLocation", "name": "LD name", "description": "LD text", "image": ["i.jpg"]})),
        BASE,
    )
    assert (linked.title, linked.description, linked.image) == (
        "LD name",
        "LD text",
        "https://tours.example.com/t/i.jpg",
    )
    bare = parse_page(page("<title>\n  Only a title </title>"), BASE)
    assert (bare.title, bare.description, bare.image) == ("Only a title", "", "")


def test_long_texts_are_clipped_to_the_form_limits() -> None:
    found = parse_page(
        page(
            f'<meta property="og:title" content="{"T" * 400}"><meta property="og:description" content="{"d" * 5000}">'
        ),
        BASE,
    )
    assert len(found.title) == 255 and found.title.endswith("…")
    assert len(found.description) == 4000


def test_images_must_be_http() -> None:
    found = parse_page(page('<meta property="og:image" content="javascript:alert(1)">'), BASE)
    assert found.image == ""
    data = parse_page(page('<meta property="og:image" content="data:image/png;base64,AAAA">'), BASE)
    assert data.image == ""


def test_the_oembed_link_is_found_and_made_absolute() -> None:
    found = parse_page(
        page('<link rel="alternate" type="application/json+oembed" href="/oembed?url=x" title="oEmbed">'), BASE
    )
    assert found.oembed_url == "https://tours.example.com/oembed?url=x"
    xml_only = parse_page(page('<link rel="alternate" type="text/xml+oembed" href="/oembed.xml">'), BASE)
    assert xml_only.oembed_url is None


def test_json_ld_place_inside_a_graph_gives_coordinates_and_address() -> None:
    document = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebPage", "name": "Tour page"},
            {
                "@type": "Museum",
                "name": "Louvre",
                "geo": {"@type": "GeoCoordinates", "latitude": "48.8606", "longitude": 2.3376},
                "address": {
                    "@type": "PostalAddress",
                    "streetAddress": "Rue de Rivoli",
                    "addressLocality": "Paris",
                    "addressRegion": "Île-de-France",
                    "addressCountry": {"@type": "Country", "name": "France"},
                },
            },
        ],
    }
    found = parse_page(page(json_ld(document)), BASE)
    assert found.title == "Tour page"
    assert found.coordinates == (2.3376, 48.8606)
    assert found.address == PostalAddress(
        street="Rue de Rivoli", locality="Paris", region="Île-de-France", country="France"
    )
    assert found.address.search_texts() == [
        "Paris, Île-de-France, France",
        "Paris, France",
        "Paris",
        "Île-de-France, France",
        "France",
    ]


def test_meta_coordinates_and_addresses() -> None:
    og = parse_page(
        page('<meta property="og:latitude" content="41.4"><meta property="og:longitude" content="2.17">'), BASE
    )
    assert og.coordinates == (2.17, 41.4)
    place = parse_page(
        page(
            '<meta property="place:location:latitude" content="-33.8568">'
            '<meta property="place:location:longitude" content="151.2153">'
        ),
        BASE,
    )
    assert place.coordinates == (151.2153, -33.8568)
    icbm = parse_page(page('<meta name="ICBM" content="50.0614, 19.9366">'), BASE)
    assert icbm.coordinates == (19.9366, 50.0614)
    address = parse_page(
        page('<meta property="og:locality" content="Kraków"><meta property="og:country-name" content="Poland">'), BASE
    )
    assert address.coordinates is None and address.address == PostalAddress(locality="Kraków", country="Poland")


def test_broken_or_impossible_values_are_ignored() -> None:
    found = parse_page(
        page(
            '<script type="application/ld+json">{ not json </script>'
            '<meta property="og:latitude" content="123"><meta property="og:longitude" content="10">'
            + json_ld({"@type": "Place", "geo": {"latitude": 0, "longitude": 0}})
            + json_ld({"@type": "Place", "geo": {"latitude": "NaN", "longitude": "1"}})
        ),
        BASE,
    )
    assert found.coordinates is None and found.address is None


def test_the_declared_charset_is_honoured() -> None:
    body = '<html><head><meta property="og:title" content="Sagrada Família"></head></html>'.encode("latin-1")
    assert parse_page(body, BASE, "ISO-8859-1").title == "Sagrada Família"
    in_page = b'<html><head><meta charset="windows-1251"><title>\xcc\xee\xf1\xea\xe2\xe0</title></head></html>'
    assert parse_page(in_page, BASE).title == "Москва"
