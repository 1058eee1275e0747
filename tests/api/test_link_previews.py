"""Link previews for crawlers (issue 13): the SPA's index.html answers a creator page and a tour
page with Open Graph / Twitter tags of that page, every value escaped; hidden pages and other paths
get the plain index.html."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tests import factories
from tests.conftest import clear_caches

INDEX_HTML = (
    '<!doctype html><html><head><meta charset="UTF-8" />'
    '<meta name="description" content="TourAtlas: discover." /><title>TourAtlas</title></head>'
    '<body><div id="root"></div></body></html>'
)
HOSTILE = 'Evil "Studio" </title><script>alert(1)</script>'


@pytest.fixture
def site(database: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    from app.main import create_app

    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "index.html").write_text(INDEX_HTML)
    monkeypatch.setenv("FRONTEND_DIST", str(tmp_path / "dist"))
    clear_caches()
    try:
        with TestClient(create_app()) as client:
            yield client
    finally:
        monkeypatch.delenv("FRONTEND_DIST")
        clear_caches()


def tags(html: str) -> dict[str, str]:
    soup = BeautifulSoup(html, "html.parser")
    found = {str(tag.get("property") or tag.get("name")): str(tag.get("content")) for tag in soup.find_all("meta")}
    found["title"] = soup.title.string if soup.title and soup.title.string else ""
    return found


def test_a_creator_page_carries_its_preview_escaped(site: TestClient, db: Session) -> None:
    owner = factories.user(db)
    profile = factories.creator(
        db, owner, creator_name=HOSTILE, description="Tours & <b>more</b>", logo="/uploads/creator-logos/x.png"
    )
    db.commit()
    answer = site.get(f"/creator/{profile.id}/evil-studio")
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-cache"
    assert "<script>alert(1)</script>" not in answer.text
    found = tags(answer.text)
    assert found["og:title"] == HOSTILE and found["twitter:title"] == HOSTILE
    assert found["title"] == f"{HOSTILE} · TourAtlas"
    assert found["og:description"] == "Tours & <b>more</b>" == found["description"]
    assert found["og:image"] == "http://testserver/uploads/creator-logos/x.png"
    assert found["og:url"] == f"http://testserver/creator/{profile.id}/evil-studio"
    assert found["twitter:card"] == "summary_large_image"


def test_a_tour_page_carries_its_preview(site: TestClient, db: Session) -> None:
    owner = factories.user(db)
    catalog = factories.catalog(db)
    tour = catalog.tour(db, owner, title="Old Town Hall", description="A walk through the hall")
    draft = catalog.tour(db, owner, title="Unlisted", status="draft")
    db.commit()
    for path in (f"/virtualtours/{tour.guid}", f"/media/{tour.guid}"):
        found = tags(site.get(path).text)
        assert found["og:title"] == "Old Town Hall" and found["og:description"] == "A walk through the hall"
    plain = site.get(f"/virtualtours/{draft.guid}")
    assert plain.status_code == 200 and "og:title" not in plain.text
    assert "og:title" not in site.get("/creator/987654").text
    assert site.get("/feed").text == INDEX_HTML
