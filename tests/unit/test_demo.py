"""The demo corpus: deterministic rows, a consistent database after loading, a rerun that does
nothing, pictures drawn locally. The database is a temporary SQLite file migrated with
`upgrade_database` (a throw-away PostgreSQL database when TOURATLAS_TEST_DB=postgresql)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import Engine, func, insert, select, text

from app.classifications.dictionaries import CATEGORIES, VENDORS, match_vendor_link, normalise_link
from demo.corpus import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    ALPHANUMERIC,
    CM_EMAIL,
    CM_PASSWORD,
    DEMO_EMAIL,
    DEMO_PASSWORD,
    CorpusConfig,
    DemoCorpus,
    DictionaryIds,
    TokenMint,
)
from demo.images import PREVIEW_SIZE, ensure_logos, ensure_preview_pool, render_logo, render_preview
from demo.places import MAX_JITTER_DEGREES, load_cities
from tests.conftest import TEST_DB, create_postgres_database, drop_postgres_database, postgres_available

ANCHOR = datetime(2026, 11, 1, tzinfo=UTC)
TOURS, CREATORS, MEMBERS = 2000, 100, 300


@dataclass
class LoadedDemo:
    engine: Engine
    rows: dict[str, int]


def _scalar(engine: Engine, sql: str) -> int:
    with engine.connect() as connection:
        return int(connection.execute(text(sql)).scalar_one())


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoadedDemo]:
    from app.core.db import make_engine
    from app.core.migrate import upgrade_database
    from demo.loader import load_demo

    pg_name = None
    if TEST_DB == "postgresql":
        reason = postgres_available()
        if reason:
            pytest.skip(f"PostgreSQL tests skipped: {reason}")
        pg_name, url = create_postgres_database()
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('demo') / 'demo.db'}"
    upgrade_database(url)
    engine = make_engine(url)
    try:
        report = load_demo(engine, tours=TOURS, creators=CREATORS, plain_users=MEMBERS, anchor=ANCHOR, images=False)
        assert report.loaded
        yield LoadedDemo(engine, report.rows)
    finally:
        engine.dispose()
        if pg_name:
            drop_postgres_database(pg_name)


# --- the generator ------------------------------------------------------------------------------------------


def _builtin_ids() -> DictionaryIds:
    from app.classifications.dictionaries import CAPTURE_DEVICES, MEDIA_TYPES, TAGS

    return DictionaryIds(
        categories={category.name: number for number, category in enumerate(CATEGORIES, 1)},
        subcategories={
            (category.name, name): number * 100 + position
            for number, category in enumerate(CATEGORIES, 1)
            for position, name in enumerate(category.subcategories)
        },
        media_types={media.name: number for number, media in enumerate(MEDIA_TYPES, 1)},
        vendors={vendor.name: number for number, vendor in enumerate(VENDORS, 1)},
        capture_devices={device.name: number for number, device in enumerate(CAPTURE_DEVICES, 1)},
        tags={tag.name: number for number, tag in enumerate(TAGS, 1)},
    )


def _all_rows(corpus: DemoCorpus) -> dict[str, list[dict[str, object]]]:
    tables: dict[str, list[dict[str, object]]] = {
        "users": corpus.user_rows(),
        "creators": corpus.creator_rows(),
        "user_interests": corpus.interest_rows(),
        "follows": corpus.follow_rows(),
    }
    for batch in corpus.tour_batches(batch_size=250):
        for name, rows in batch.tables():
            tables.setdefault(name, []).extend(rows)
    tables["ads"], tables["ad_tags"], tables["ad_engagements"] = corpus.ad_rows()
    return tables


def _corpus(seed: int) -> DemoCorpus:
    config = CorpusConfig(tours=600, creators=30, plain_users=60, seed=seed, anchor=ANCHOR)
    return DemoCorpus(config, _builtin_ids(), hash_password=lambda password: f"hashed:{password}")


def test_same_seed_gives_the_same_rows() -> None:
    first, second = _all_rows(_corpus(7)), _all_rows(_corpus(7))
    assert first.keys() == second.keys()
    for table in first:
        assert first[table] == second[table], table
    assert len(first["tours"]) == 600


def test_another_seed_gives_other_tours() -> None:
    first = [row["link"] for batch in _corpus(7).tour_batches() for row in batch.tours]
    second = [row["link"] for batch in _corpus(8).tour_batches() for row in batch.tours]
    assert first != second


def test_link_tokens_are_unique_across_a_large_range() -> None:
    mint = TokenMint(seed=1)
    import random

    rng = random.Random(1)
    tokens = {mint.token(index, ALPHANUMERIC, 5, "ku", rng) for index in range(200_000)}
    assert len(tokens) == 200_000


# --- the loaded database ------------------------------------------------------------------------------------


def test_counts(demo: LoadedDemo) -> None:
    assert _scalar(demo.engine, "SELECT COUNT(*) FROM tours") == TOURS
    assert _scalar(demo.engine, "SELECT COUNT(*) FROM creators") == CREATORS
    assert _scalar(demo.engine, "SELECT COUNT(*) FROM users") == 3 + CREATORS + MEMBERS
    assert _scalar(demo.engine, "SELECT COUNT(DISTINCT address_country) FROM tours") >= 20
    assert _scalar(demo.engine, "SELECT COUNT(DISTINCT creator_id) FROM tours") >= CREATORS * 0.8
    assert _scalar(demo.engine, "SELECT COUNT(*) FROM ads") == 12
    assert demo.rows["tours"] == TOURS


def test_moderation_states_and_featured_tours(demo: LoadedDemo) -> None:
    drafts = _scalar(demo.engine, "SELECT COUNT(*) FROM tours WHERE status = 'draft'")
    pending = _scalar(demo.engine, "SELECT COUNT(*) FROM tours WHERE approval_state = 'pending'")
    featured = _scalar(demo.engine, "SELECT COUNT(*) FROM tours WHERE is_featured")
    assert 0.03 * TOURS <= drafts <= 0.09 * TOURS
    assert 0.015 * TOURS <= pending <= 0.05 * TOURS
    assert 5 <= featured <= 24
    unlisted_engagement = (
        "SELECT COUNT(*) FROM tours WHERE (status = 'draft' OR approval_state <> 'approved') AND likes > 0"
    )
    assert _scalar(demo.engine, unlisted_engagement) == 0


def test_every_link_matches_its_vendor_and_is_unique(demo: LoadedDemo) -> None:
    vendors_by_id = _vendors_by_id(demo.engine)
    with demo.engine.connect() as connection:
        rows = connection.execute(text("SELECT vendor_id, link, link_normalised FROM tours")).all()
    for vendor_id, link, link_normalised in rows:
        vendor = vendors_by_id[vendor_id]
        assert match_vendor_link(vendor, link), (vendor.name, link)
        assert [other.name for other in VENDORS if other is not vendor and match_vendor_link(other, link)] == []
        assert link_normalised == normalise_link(link)
    assert len({row[1] for row in rows}) == len({row[2] for row in rows}) == TOURS


def _vendors_by_id(engine: Engine) -> dict[int, object]:
    by_name = {vendor.name: vendor for vendor in VENDORS}
    with engine.connect() as connection:
        return {
            vendor_id: by_name[name] for vendor_id, name in connection.execute(text("SELECT id, name FROM vendors"))
        }


def test_tours_are_at_their_gazetteer_city(demo: LoadedDemo) -> None:
    cities = {city.geonameid: city for city in load_cities()}
    with demo.engine.connect() as connection:
        rows = connection.execute(text("SELECT address_id, address_country, address_city, lat, lng FROM tours")).all()
    import math

    for address_id, country, city_name, lat, lng in rows:
        city = cities[int(address_id.removeprefix("place."))]
        assert (country, city_name) == (city.country_code, city.name)
        assert abs(lat - city.lat) <= MAX_JITTER_DEGREES + 1e-6
        assert abs(lng - city.lng) <= MAX_JITTER_DEGREES / max(math.cos(math.radians(city.lat)), 0.2) + 1e-6


def test_addresses_are_complete(demo: LoadedDemo) -> None:
    with demo.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT address_street, address_city, address_country, address_str FROM tours")
        ).all()
    for street, city, country, formatted in rows:
        assert street and city and re.fullmatch(r"[A-Z]{2}", country)
        assert street in formatted and city in formatted
    with_province = _scalar(demo.engine, "SELECT COUNT(*) FROM tours WHERE address_province IS NOT NULL")
    assert with_province >= 0.95 * TOURS


def test_like_and_save_counters_equal_their_rows(demo: LoadedDemo) -> None:
    for counter, table in (("likes", "tour_likes"), ("saves", "tour_saves")):
        mismatches = (
            f"SELECT COUNT(*) FROM tours t WHERE t.{counter} <> (SELECT COUNT(*) FROM {table} r WHERE r.tour_id = t.id)"
        )
        assert _scalar(demo.engine, mismatches) == 0, counter
    assert _scalar(demo.engine, "SELECT COUNT(*) FROM tour_likes") > TOURS
    views_below_rows = (
        "SELECT COUNT(*) FROM tours t WHERE t.views < (SELECT COUNT(*) FROM tour_views v WHERE v.tour_id = t.id)"
    )
    assert _scalar(demo.engine, views_below_rows) == 0


def test_analytics_events_mirror_the_engagement_rows(demo: LoadedDemo) -> None:
    """The creators' Analytics of the demo is not empty: every like, save and view row has its event,
    at the same moment, with the tour's creator."""
    for kind, table in (("like", "tour_likes"), ("save", "tour_saves"), ("view", "tour_views")):
        rows = _scalar(demo.engine, f"SELECT COUNT(*) FROM {table}")
        events = _scalar(demo.engine, f"SELECT COUNT(*) FROM analytics_events WHERE kind = '{kind}'")
        assert events == rows > 0, kind
    unmatched = (
        "SELECT COUNT(*) FROM tour_likes l WHERE NOT EXISTS (SELECT 1 FROM analytics_events e JOIN tours t "
        "ON t.id = e.tour_id WHERE e.kind = 'like' AND e.tour_id = l.tour_id AND e.user_id = l.user_id "
        "AND e.occurred_at = l.created_at AND COALESCE(e.creator_id, -1) = COALESCE(t.creator_id, -1))"
    )
    assert _scalar(demo.engine, unmatched) == 0
    with demo.engine.connect() as connection:
        sample = connection.execute(text("SELECT occurred_at, bucket FROM analytics_events LIMIT 200")).all()
    for occurred_at, bucket in sample:
        stored = datetime.fromisoformat(occurred_at) if isinstance(occurred_at, str) else occurred_at  # SQLite: text
        moment = stored if stored.tzinfo else stored.replace(tzinfo=UTC)
        assert bucket == int(moment.timestamp()) // 900


def test_creator_counters_follow_the_rows(demo: LoadedDemo) -> None:
    followers = (
        "SELECT COUNT(*) FROM creators c"
        " WHERE c.followers <> (SELECT COUNT(*) FROM follows f WHERE f.creator_id = c.id)"
    )
    listed = (
        "SELECT COUNT(*) FROM creators c WHERE c.vt_count <> (SELECT COUNT(*) FROM tours t WHERE t.creator_id = c.id"
        " AND t.status = 'active' AND t.approval_state = 'approved')"
    )
    assert _scalar(demo.engine, followers) == 0
    assert _scalar(demo.engine, listed) == 0
    assert _scalar(demo.engine, "SELECT COUNT(*) FROM follows") > CREATORS
    featured_of_others = (
        "SELECT COUNT(*) FROM creator_featured_tours f JOIN tours t ON t.id = f.tour_id"
        " WHERE t.creator_id <> f.creator_id"
    )
    assert _scalar(demo.engine, featured_of_others) == 0
    most_featured = "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM creator_featured_tours GROUP BY creator_id) s"
    assert _scalar(demo.engine, most_featured) <= 10


def test_ad_counters_equal_their_engagement_rows(demo: LoadedDemo) -> None:
    for kind, counter in (("like", "likes"), ("save", "saves")):
        mismatches = (
            f"SELECT COUNT(*) FROM ads a WHERE a.{counter} <> "
            f"(SELECT COUNT(*) FROM ad_engagements e WHERE e.ad_id = a.id AND e.kind = '{kind}')"
        )
        assert _scalar(demo.engine, mismatches) == 0


def test_tags_fit_the_tour(demo: LoadedDemo) -> None:
    per_tour = (
        "SELECT COUNT(*) FROM (SELECT tour_id, COUNT(*) AS n FROM tour_tags GROUP BY tour_id) s WHERE n < 2 OR n > 6"
    )
    assert _scalar(demo.engine, per_tour) == 0
    assert _scalar(demo.engine, "SELECT COUNT(DISTINCT tour_id) FROM tour_tags") == TOURS
    foreign = (
        "SELECT COUNT(*) FROM tour_tags tt JOIN tours t ON t.id = tt.tour_id JOIN tags g ON g.id = tt.tag_id"
        " WHERE NOT ((g.topic_type = 'category' AND g.topic_id = t.category_id)"
        " OR (g.topic_type = 'media_type' AND g.topic_id = t.media_type_id))"
    )
    assert _scalar(demo.engine, foreign) == 0


def test_no_image_is_fetched_from_the_internet(demo: LoadedDemo) -> None:
    image_columns = {
        "tours": "preview_picture",
        "ads": "preview_picture",
        "creators": "logo",
        "users": "profile_img",
        "categories": "image_search",
    }
    with demo.engine.connect() as connection:
        for table, column in image_columns.items():
            values = (
                connection.execute(text(f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL")).scalars().all()
            )
            assert values, table
            assert not [value for value in values if "http" in value.lower() or value.startswith("//")], table
        previews = connection.execute(text("SELECT preview_picture FROM tours")).scalars().all()
    slugs = "|".join(category.slug for category in CATEGORIES)
    assert all(re.fullmatch(rf"/uploads/demo/previews/({slugs})-(0[1-9]|1[0-2])\.jpg", value) for value in previews)


def test_staff_accounts_sign_in_with_their_passwords(demo: LoadedDemo) -> None:
    from app.core.security import verify_password

    with demo.engine.connect() as connection:
        accounts = {
            email: (password_hash, is_admin, roles)
            for email, password_hash, is_admin, roles in connection.execute(
                text("SELECT email, password_hash, is_admin, roles FROM users WHERE email IN (:a, :c, :d)"),
                {"a": ADMIN_EMAIL, "c": CM_EMAIL, "d": DEMO_EMAIL},
            )
        }
    assert verify_password(accounts[ADMIN_EMAIL][0], ADMIN_PASSWORD) and accounts[ADMIN_EMAIL][1]
    assert verify_password(accounts[CM_EMAIL][0], CM_PASSWORD) and "CM" in str(accounts[CM_EMAIL][2])
    assert verify_password(accounts[DEMO_EMAIL][0], DEMO_PASSWORD) and not accounts[DEMO_EMAIL][1]
    assert not verify_password(accounts[ADMIN_EMAIL][0], DEMO_PASSWORD)


def test_new_rows_get_fresh_ids_after_the_load(demo: LoadedDemo) -> None:
    import app.models

    users = app.models.metadata.tables["users"]
    before = _scalar(demo.engine, "SELECT MAX(id) FROM users")
    with demo.engine.begin() as connection:
        new_id = connection.execute(
            insert(users).values(email="late@example.com", password_hash=None).returning(users.c.id)
        ).scalar_one()
        connection.execute(users.delete().where(users.c.id == new_id))
    assert new_id == before + 1


def test_loading_again_does_nothing(demo: LoadedDemo) -> None:
    from sqlalchemy.orm import Session

    from app.classifications.seed import load_dictionaries
    from demo.loader import load_demo

    counts = {
        table: _scalar(demo.engine, f"SELECT COUNT(*) FROM {table}") for table in ("users", "tours", "tags", "follows")
    }
    messages: list[str] = []
    report = load_demo(
        demo.engine, tours=TOURS, creators=CREATORS, anchor=ANCHOR, images=False, progress=messages.append
    )
    assert not report.loaded and messages == ["demo content is already loaded: nothing to do"]
    with Session(demo.engine) as session, session.begin():
        assert set(load_dictionaries(session).values()) == {0}
    assert counts == {table: _scalar(demo.engine, f"SELECT COUNT(*) FROM {table}") for table in counts}


def test_dictionaries_are_in_the_database(demo: LoadedDemo) -> None:
    from app.classifications.dictionaries import BILLING_PLANS, TAGS

    with demo.engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(text("vendors"))).scalar_one() == len(VENDORS)
        assert connection.execute(select(func.count()).select_from(text("tags"))).scalar_one() == len(TAGS)
        assert connection.execute(select(func.count()).select_from(text("billing_plans"))).scalar_one() == len(
            BILLING_PLANS
        )
        assert connection.execute(text("SELECT gui_version FROM platform_config WHERE id = 1")).scalar_one() == "2.3.7"


# --- pictures ---------------------------------------------------------------------------------------------------


def test_previews_are_small_jpegs_and_not_redrawn(tmp_path: Path) -> None:
    slugs = ["real-estate", "underwater", "science-space", "landmarks"]
    assert ensure_preview_pool(tmp_path, seed=3, per_category=2, category_slugs=slugs) == 8
    files = sorted((tmp_path / "demo" / "previews").glob("*.jpg"))
    assert len(files) == 8
    for path in files:
        assert path.stat().st_size <= 60 * 1024
        with Image.open(path) as image:
            assert image.format == "JPEG" and image.size == PREVIEW_SIZE
    assert ensure_preview_pool(tmp_path, seed=3, per_category=2, category_slugs=slugs) == 0


def test_logos_are_square_pngs(tmp_path: Path) -> None:
    assert ensure_logos(tmp_path, seed=3, logos=[("creator-0001", "Blue Horizon 360"), ("creator-0002", "Ana")]) == 2
    for path in (tmp_path / "demo" / "logos").glob("*.png"):
        with Image.open(path) as image:
            assert image.format == "PNG" and image.size == (256, 256)


def test_pictures_are_deterministic() -> None:
    def png_bytes(image: Image.Image) -> bytes:
        buffer = io.BytesIO()
        image.save(buffer, "PNG")
        return buffer.getvalue()

    assert png_bytes(render_preview("nature-parks", 4, seed=9)) == png_bytes(render_preview("nature-parks", 4, seed=9))
    assert png_bytes(render_preview("nature-parks", 4, seed=9)) != png_bytes(render_preview("nature-parks", 5, seed=9))
    assert png_bytes(render_logo("Atlas VR", seed=9)) == png_bytes(render_logo("Atlas VR", seed=9))
