"""Hashtags in tour descriptions (issue 18 part 6, as Kuula does): a `#word` of a description that
names an existing tag becomes one of the tour's tags.

What a hashtag is, here and in the client (frontend/src/shared/tags/hashtags.ts keeps the same rule):
- `#` at the start of the text or after a space or an opening mark (`(`, `[`, `"`, `«`, …), followed by
  letters, digits and underscores of any script (`#пляж`, `#GoldenHour`, `#golden_hour`), optionally
  joined by single hyphens (`#multi-scene-tour`), with at least one letter: `#1` and `#2024` are not
  hashtags.
- Never inside a word (`C#`, `abc#def`), an HTML entity (`&#39;`) or a web address
  (`https://example.com/page#section`, `example.com/#/route`): addresses are blanked out first.

A hashtag names a tag when their keys are equal: NFKC, lower case, Cyrillic yo read as ye, and every
character that is not a letter or a digit dropped. So `#birdseyeview` and `#Birds_Eye_View` both name
"Bird's Eye View", and `#замок` names a tag whose Russian name is "Замок". Names in every language
count (the tag's own English name and its translations, app/classifications/names.py). When several
tags share a key (namesakes in different topics), the one of the tour's category, then of its media
type, then the oldest wins.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.classifications.models import DictionaryKind, DictionaryName, Tag, TagTopicType

# Longer than any tag name may be (names.MAX_LENGTHS): such a word names no tag.
MAX_HASHTAG_LENGTH = 100

_ADDRESS = re.compile(r"(?:[a-z][a-z0-9+.-]*://|www\.)\S+|\b[\w.-]+\.[a-z]{2,}/\S*", re.IGNORECASE)
# What may stand before a hashtag: a space or an opening mark (quotes of several languages as escapes).
_HASHTAG = re.compile(r"(?:^|(?<=[\s(\[{\"'\u00ab\u201c\u201e\u2018,;!?\u00a1\u00bf\u2026]))#(\w+(?:-\w+)*)")


@dataclass(frozen=True, slots=True)
class Hashtag:
    text: str  # as written, without the '#'
    key: str


def hashtag_key(text: str) -> str:
    """What a hashtag and a tag name are compared by."""
    folded = unicodedata.normalize("NFKC", text).lower().replace("\u0451", "\u0435")  # Cyrillic yo as ye
    return "".join(char for char in folded if char.isalnum())


def hashtags_in(text: str | None) -> list[Hashtag]:
    """The hashtags of a text in order of first appearance, one per key."""
    if not text:
        return []
    blanked = _ADDRESS.sub(lambda match: " " * len(match.group()), text)
    found: dict[str, Hashtag] = {}
    for match in _HASHTAG.finditer(blanked):
        word = match.group(1)
        key = hashtag_key(word)
        if len(word) > MAX_HASHTAG_LENGTH or not key or not any(char.isalpha() for char in word):
            continue
        found.setdefault(key, Hashtag(text=word, key=key))
    return list(found.values())


@dataclass(frozen=True, slots=True)
class HashtagTag:
    """A hashtag of the description and the tag it names."""

    hashtag: str
    tag: Tag


def tags_for_hashtags(
    db: Session, hashtags: Sequence[Hashtag], *, category_id: int | None, media_type_id: int | None
) -> list[HashtagTag]:
    """The active tags the hashtags name, in the hashtags' order (hashtags that name none are left out)."""
    if not hashtags:
        return []
    candidates: dict[str, list[Tag]] = {}
    tags = {tag.id: tag for tag in db.scalars(select(Tag).where(Tag.is_active.is_(True)))}
    names = db.execute(
        select(DictionaryName.entity_id, DictionaryName.name).where(DictionaryName.kind == DictionaryKind.tag)
    ).all()
    for tag_id, name in [*((tag.id, tag.name) for tag in tags.values()), *names]:
        tag = tags.get(tag_id)
        if tag is not None:
            bucket = candidates.setdefault(hashtag_key(name), [])
            if tag not in bucket:
                bucket.append(tag)

    def preference(tag: Tag) -> tuple[int, int]:
        if tag.topic_type == TagTopicType.category and tag.topic_id == category_id:
            return (0, tag.id)
        if tag.topic_type == TagTopicType.media_type and tag.topic_id == media_type_id:
            return (1, tag.id)
        return (2, tag.id)

    matched: list[HashtagTag] = []
    seen: set[int] = set()
    for hashtag in hashtags:
        options = candidates.get(hashtag.key)
        if not options:
            continue
        tag = min(options, key=preference)
        if tag.id not in seen:
            seen.add(tag.id)
            matched.append(HashtagTag(hashtag=hashtag.text, tag=tag))
    return matched
