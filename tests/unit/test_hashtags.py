"""What counts as a hashtag of a description and what it is compared by (app/classifications/hashtags.py;
the client's frontend/src/shared/tags/hashtags.ts keeps the same rule and is tested on the same cases)."""

from __future__ import annotations

import pytest

from app.classifications.hashtags import hashtag_key, hashtags_in


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("#beach at #GoldenHour", ["beach", "GoldenHour"]),
        ("#castle.", ["castle"]),
        ("(#castle) «#замок», “#ёлка”", ["castle", "замок", "ёлка"]),
        ("#multi-scene-tour- and #golden_hour", ["multi-scene-tour", "golden_hour"]),
        ("#Beach #beach #BEACH", ["Beach"]),  # one per key, as first written
        ("line one\n#second-line", ["second-line"]),
        # Not hashtags: inside words and entities, numbers alone, inside web addresses.
        ("C# and abc#def and &#39;", []),
        ("#1 #2024 but #4K", ["4K"]),
        ("https://example.com/page#section", []),
        ("example.com/#/route www.site.org/a#b", []),
        ("see https://kuula.co/share/abc #kuula", ["kuula"]),
        ("key:#value ##double", []),
        ("", []),
    ],
)
def test_hashtags_in(text: str, expected: list[str]) -> None:
    assert [hashtag.text for hashtag in hashtags_in(text)] == expected


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Bird's Eye View", "birds_eye_view"),
        ("Golden Hour", "GOLDENHOUR"),
        ("Multi-Scene Tour", "multiscenetour"),
        ("Ёлка", "елка"),
        ("Замок", "ЗАМОК"),  # noqa: RUF001 - Cyrillic on purpose
        ("4K", "4k"),
    ],
)
def test_names_and_hashtags_compare_by_key(left: str, right: str) -> None:
    assert hashtag_key(left) == hashtag_key(right)


def test_a_word_longer_than_any_tag_name_is_not_a_hashtag() -> None:
    assert hashtags_in("#" + "a" * 101) == []
