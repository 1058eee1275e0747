"""The built-in dictionaries: link formats and embeds of the hosts, unique names, complete topics."""

from __future__ import annotations

from collections import Counter

import pytest

from app.classifications import dictionaries as d

# Share links as the hosts hand them out (ids from public pages or shaped like them).
SAMPLE_LINKS: dict[str, tuple[str, ...]] = {
    "Matterport": (
        "https://my.matterport.com/show/?m=SxQL3iGyoDo",
        "https://my.matterport.com/show?m=SxQL3iGyoDo&play=1",
        "https://my.matterport.com/show/?play=1&m=Zh14WDtkjdC&brand=0",
        "https://discover.matterport.com/space/SxQL3iGyoDo",
    ),
    "Cupix": (
        "https://acme-realty.cupix.works/sv/q8gnw1",
        "https://apidemo.cupix.works/sv/9hivpe82w8",
    ),
    "Google Street View": (
        "https://www.google.com/maps/@48.8583701,2.2944813,3a,75y,90t/data=!3m6!1e1!3m4!1sAF1QipN7Y0CqsV2Zj8sWvC!2e10!7i13312!8i6656",
        "https://www.google.com/maps/@40.7579747,-73.9855426,3a,75y,17.7h,90t/data=!3m7!1e1!3m5!1sCzbaeq5WpWfSymTvBbrdSQ!2e0!7i16384!8i8192",
        "https://www.google.co.uk/maps/place/Big+Ben/@51.5007292,-0.1246254,3a,75y,90t/data=!3m8!1e1!3m6!1sAF1QipMx0cRVk2!2e10",
        "https://www.google.com/maps/@-33.8567844,151.2152967,3a,60y,90t/data=!3m6!1e1!3m4!1sabc_DEF-123456789xyz!2e0!7i13312!8i6656",
    ),
    "YouTube 360": (
        "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
        "https://youtube.com/watch?feature=share&v=aqz-KE-bpKQ",
        "https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
        "https://youtu.be/aqz-KE-bpKQ",
        "https://youtu.be/aqz-KE-bpKQ?t=42",
    ),
    "Vimeo 360": (
        "https://vimeo.com/215984568",
        "https://vimeo.com/channels/360vr/215984568",
        "https://www.vimeo.com/video/76979871",
    ),
    "Veer VR": (
        "https://veer.tv/videos/fuzzy-beard-360-7514",
        "http://veer.tv/videos/160766",
    ),
    "Sketchfab": (
        "https://sketchfab.com/3d-models/old-town-hall-4b2f9e3c1d0a4e6f8a7b5c3d2e1f0a9b",
        "https://sketchfab.com/models/4b2f9e3c1d0a4e6f8a7b5c3d2e1f0a9b",
        "https://sketchfab.com/models/4b2f9e3c1d0a4e6f8a7b5c3d2e1f0a9b/embed",
    ),
    "Kuula": (
        "https://kuula.co/share/7lM2j",
        "https://kuula.co/post/NR0V7?fs=1&vr=0",
    ),
    "Roundme": (
        "https://roundme.com/tour/463798/view/1595277/",
        "https://roundme.com/tour/194410",
    ),
    "Momento360": (
        "https://momento360.com/e/u/a9b53aa8f8b0403ba7a4e18243aabc66",
        "https://momento360.com/e/u/a9b53aa8f8b0403ba7a4e18243aabc66?utm_campaign=embed&heading=0&pitch=0&size=medium",
    ),
    "360Cities": (
        "https://www.360cities.net/image/machu-picchu-peru-2011",
        "https://www.360cities.net/en/image/pemayangste-monastery-in-sikkim",
    ),
}

NOT_A_TOUR_LINK = (
    "https://example.com/show/?m=SxQL3iGyoDo",
    "https://my.matterport.com.evil.example/show/?m=SxQL3iGyoDo",
    "https://my.matterport.com/show/?m=short",
    "https://evil.example/?next=https://kuula.co/share/7lM2j",
    "https://kuula.co/share/",
    "https://www.youtube.com/watch?v=tooShort",
    "https://sketchfab.com/3d-models/no-id-here",
    "https://www.google.com/maps/place/Big+Ben",
    "javascript:alert(1)",
    "",
)


def test_every_host_has_sample_links() -> None:
    assert set(SAMPLE_LINKS) == {vendor.name for vendor in d.VENDORS}


@pytest.mark.parametrize(
    ("vendor_name", "link"), [(vendor, link) for vendor, links in SAMPLE_LINKS.items() for link in links]
)
def test_a_sample_link_matches_its_host_and_no_other(vendor_name: str, link: str) -> None:
    matching = [vendor.name for vendor in d.VENDORS if d.match_vendor_link(vendor, link)]
    assert matching == [vendor_name]


@pytest.mark.parametrize("link", NOT_A_TOUR_LINK)
def test_other_links_match_no_host(link: str) -> None:
    assert [vendor.name for vendor in d.VENDORS if d.match_vendor_link(vendor, link)] == []


def test_the_link_header_placeholder_is_a_valid_link_except_where_elided() -> None:
    for vendor in d.VENDORS:
        if "…" not in vendor.link_header:
            assert d.match_vendor_link(vendor, vendor.link_header), vendor.name


@pytest.mark.parametrize(
    ("vendor_name", "link", "embed"),
    [
        (
            "Matterport",
            "https://my.matterport.com/show/?m=SxQL3iGyoDo",
            "https://my.matterport.com/show/?m=SxQL3iGyoDo&play=1",
        ),
        ("Kuula", "https://kuula.co/share/7lM2j", "https://kuula.co/share/7lM2j?fs=1&vr=1&thumbs=1&info=0"),
        ("YouTube 360", "https://youtu.be/aqz-KE-bpKQ?t=42", "https://www.youtube.com/embed/aqz-KE-bpKQ"),
        ("Vimeo 360", "https://vimeo.com/215984568", "https://player.vimeo.com/video/215984568"),
        (
            "Sketchfab",
            "https://sketchfab.com/3d-models/old-town-hall-4b2f9e3c1d0a4e6f8a7b5c3d2e1f0a9b",
            "https://sketchfab.com/models/4b2f9e3c1d0a4e6f8a7b5c3d2e1f0a9b/embed",
        ),
        ("Roundme", "https://roundme.com/tour/463798/view/1595277/", "https://roundme.com/embed/463798"),
        (
            "360Cities",
            "https://www.360cities.net/image/machu-picchu-peru-2011",
            "https://www.360cities.net/embed_iframe/machu-picchu-peru-2011",
        ),
        ("Cupix", "https://acme.cupix.works/sv/q8gnw1", "https://acme.cupix.works/sv/q8gnw1"),
    ],
)
def test_embed_urls(vendor_name: str, link: str, embed: str) -> None:
    vendor = d.vendor_by_name(vendor_name)
    assert d.render_embed_url(vendor.embed_template, vendor.link_pattern, link) == embed


def test_street_view_embed_carries_the_panorama_and_its_position() -> None:
    vendor = d.vendor_by_name("Google Street View")
    link = SAMPLE_LINKS["Google Street View"][1]
    embed = d.render_embed_url(vendor.embed_template, vendor.link_pattern, link)
    assert embed is not None
    assert embed.startswith("https://www.google.com/maps/embed?pb=")
    assert "!1sCzbaeq5WpWfSymTvBbrdSQ!" in embed
    assert "!1d40.7579747!2d-73.9855426!" in embed


def test_embed_of_a_foreign_link_is_none() -> None:
    vendor = d.vendor_by_name("Matterport")
    assert d.render_embed_url(vendor.embed_template, vendor.link_pattern, "https://kuula.co/share/7lM2j") is None


def test_every_embed_template_uses_only_groups_its_pattern_defines() -> None:
    for vendor in d.VENDORS:
        for link in SAMPLE_LINKS[vendor.name]:
            embed = d.render_embed_url(vendor.embed_template, vendor.link_pattern, link)
            assert embed is not None and embed.startswith("https://"), (vendor.name, link)


def test_normalise_link_keeps_case_of_ids_and_drops_noise() -> None:
    assert d.normalise_link(" http://WWW.Kuula.co/share/7lM2j/#top ") == "https://kuula.co/share/7lM2j"
    assert d.normalise_link("https://my.matterport.com/show/?m=SxQL3iGyoDo") != d.normalise_link(
        "https://my.matterport.com/show/?m=sxql3igyodo"
    )


def _duplicates(names: list[str]) -> list[str]:
    return [name for name, count in Counter(name.lower() for name in names).items() if count > 1]


def test_names_are_unique() -> None:
    assert _duplicates([vendor.name for vendor in d.VENDORS]) == []
    assert _duplicates([vendor.slug for vendor in d.VENDORS]) == []
    assert _duplicates([category.name for category in d.CATEGORIES]) == []
    assert _duplicates([category.slug for category in d.CATEGORIES]) == []
    assert _duplicates([media.name for media in d.MEDIA_TYPES]) == []
    assert _duplicates([media.slug for media in d.MEDIA_TYPES]) == []
    assert _duplicates([device.name for device in d.CAPTURE_DEVICES]) == []
    assert _duplicates([tag.name for tag in d.TAGS]) == []
    assert _duplicates(list(d.RANK_SOURCES)) == []
    assert _duplicates([plan.plan_name for plan in d.BILLING_PLANS]) == []
    for category in d.CATEGORIES:
        assert _duplicates(list(category.subcategories)) == [], category.name


def test_sizes_of_the_dictionaries() -> None:
    assert 10 <= len(d.VENDORS) <= 12
    assert len(d.CATEGORIES) >= 20
    assert all(3 <= len(category.subcategories) <= 8 for category in d.CATEGORIES)
    assert all(category.icon for category in d.CATEGORIES)
    assert len(d.TAGS) >= 200
    assert all(tag.description for tag in d.TAGS)
    assert set(d.RANK_SOURCES) == {"Trending", "Popularity", "Featured"}


def test_references_between_dictionaries_resolve() -> None:
    media_types = {media.name for media in d.MEDIA_TYPES}
    categories = {category.name for category in d.CATEGORIES}
    groups = {d.GROUP_3D_CAPTURE, d.GROUP_STREET_LEVEL, d.GROUP_360_VIDEO, d.GROUP_3D_MODELS, d.GROUP_PANORAMAS}
    for vendor in d.VENDORS:
        assert vendor.group_name in groups
        assert set(vendor.media_types) <= media_types
        assert vendor.embed_kind in {"iframe", "video"}
    assert {vendor.group_name for vendor in d.VENDORS} == groups
    for device in d.CAPTURE_DEVICES:
        assert set(device.media_types) <= media_types
    for category in d.CATEGORIES:
        assert set(category.preferred_media_types) <= media_types
        # A category's preferred media types must be offered by some host, or it could get no tours.
        assert not category.preferred_media_types or any(
            set(category.preferred_media_types) & set(vendor.media_types) for vendor in d.VENDORS
        )
    for tag in d.TAGS:
        topics = categories if tag.topic_type == d.TOPIC_CATEGORY else media_types
        assert tag.topic_name in topics, tag


def test_every_topic_has_tags() -> None:
    tagged = Counter((tag.topic_type, tag.topic_name) for tag in d.TAGS)
    assert all(tagged[(d.TOPIC_CATEGORY, category.name)] >= 4 for category in d.CATEGORIES)
    assert all(tagged[(d.TOPIC_MEDIA_TYPE, media.name)] >= 2 for media in d.MEDIA_TYPES)


def test_billing_plans() -> None:
    plans = {plan.plan_name: plan for plan in d.BILLING_PLANS}
    free = plans["Free"]
    assert free.cost == 0 and free.discount_cost == 0
    for name, interval in (("Creator Monthly", "month"), ("Creator Yearly", "year")):
        plan = plans[name]
        assert plan.interval == interval
        assert plan.trial_period_days > 0 and not plan.is_indefinite_trial
        assert plan.discount_cost is not None and 0 < plan.discount_cost < plan.cost
        assert any(feature.coming_soon for feature in plan.features)
    assert all(
        feature.as_json().keys() == {"name", "coming_soon"} for plan in d.BILLING_PLANS for feature in plan.features
    )


def test_platform_defaults() -> None:
    assert d.PLATFORM_DEFAULTS.gui_version == "2.3.7"
    assert d.PLATFORM_DEFAULTS.restrict_access is False
