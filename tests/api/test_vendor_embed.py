"""The hosts' embed rules reach the client (GET /v2/vendors/): the tour page builds its player from them.

The client runs `link_pattern` as a JavaScript regular expression after turning Python's named
groups `(?P<name>…)` into `(?<name>…)`; these tests keep the dictionary's patterns inside that subset.
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.classifications.dictionaries import VENDORS, render_embed_url
from app.classifications.seed import load_dictionaries

# Python-only regular-expression syntax the client would not understand.
PYTHON_ONLY = re.compile(r"\(\?P=|\(\?[aiLmsux]+[):]|\\[AZ]|\(\?#")


def test_vendors_carry_their_embed_rule(client: TestClient, db: Session) -> None:
    load_dictionaries(db)
    db.commit()
    answer = client.get("/v2/vendors/")
    assert answer.status_code == 200
    by_name = {vendor["vendor_name"]: vendor for vendor in answer.json()["data"]}
    for spec in VENDORS:
        listed = by_name[spec.name]
        assert listed["link_pattern"] == spec.link_pattern
        assert listed["embed_template"] == spec.embed_template
        assert listed["embed_kind"] == spec.embed_kind


def test_dictionary_patterns_stay_within_what_the_client_runs() -> None:
    for spec in VENDORS:
        assert not PYTHON_ONLY.search(spec.link_pattern), spec.name
        placeholders = set(re.findall(r"\{(\w+)\}", spec.embed_template)) - {"link"}
        assert placeholders <= set(re.compile(spec.link_pattern).groupindex), spec.name


def test_each_host_sample_link_renders_a_player_url() -> None:
    """The sample in link_header (the link field's placeholder) is a real link of the host's format."""
    for spec in VENDORS:
        if "…" in spec.link_header:
            continue  # an abbreviated sample (Google Street View) is not a whole link
        rendered = render_embed_url(spec.embed_template, spec.link_pattern, spec.link_header)
        assert rendered is not None and rendered.startswith("https://"), spec.name
