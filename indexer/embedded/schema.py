"""The embedded index's SQLite layout (see shared/research/embedded-index.md for why).

- `tours.rid` is the popularity rank at build time (views descending), so FTS posting lists and
  every index ending in rid are already in views order; later inserts append.
- Unlisted tours (reachable by link and on their owner's pages only) take negative row ids (-1, -2,
  … below the lowest): "listed" is then `rid > 0`, which every index entry and FTS posting carries,
  so discovery reads never leave their covering index, and the pyramids and the tag cell key hold
  listed tours only.
- The card and map feature JSON (about 1.3 KB a tour) live in `tour_cards`, keyed by the tour's rid:
  a `tours` row stays around 100 bytes, so the scans behind CREATE INDEX, the pyramid and whole-set
  sorts read a tenth of the pages. Pages fetch their 48 cards by key afterwards.
- `tours.version` changes whenever the row's card and feature are written (the generation the write
  commits; 0 from a rebuild), so a reader can keep what it decoded from a row until the row changes
  (pages.PointCache: the map's points).
- One covering index per sort order, globally and per category, each ending in `id` for stable ties.
- Tags live in a WITHOUT ROWID key table; text in FTS5 with prefix indexes; geo as a zoom-20 Morton
  code (`cell`) plus a per-category tile pyramid of counts and centroids for the low zooms, and one
  per tag and category (`tag_tiles`, with `tag_cells` below it) for the map after choosing a tag.
- Totals of filters made of categories, countries and media types only are kept per write in
  `tour_counts`, with every roll-up to "any" (counts.py), so they are never counted.
"""

from __future__ import annotations

import sqlite3

SORT_COLUMNS = (
    "title_key",
    "created_at",
    "views",
    "likes",
    "saves",
    "shared",
    "favorite",
    "trending",
    "popular",
    "random_key",
)
# Cluster levels of zooms 0..12: a city view (zoom 12, level 14) reads ~150 keys instead of grouping
# the city's tours live (8 ms for Paris at a million tours); deeper views cover few enough tours to
# group live. Files built with other levels refill `tiles` when opened (pyramid.ensure_pyramid_levels).
PYRAMID_LEVELS = range(2, 15)
# The map after choosing a tag: the same pyramid per tag (and category), so a tag view reads a
# screenful of keys instead of grouping the tag's tours live. It stops at zoom 8 (level 10): deeper,
# a view holds few enough of a tag's tours to group them live from `tag_cells` (0.4-0.9 ms p50 for
# the commonest tag over Paris, Tokyo or New York at zooms 9-10, 1M tours), while levels 11-12 were
# 4.4 of the 8.1 million `tag_tiles` rows (the tag links themselves are 3.7 million) and half the
# tag pyramid's build time.
TAG_PYRAMID_LEVELS = range(2, 11)

TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tours (
    rid INTEGER PRIMARY KEY,
    id INTEGER NOT NULL UNIQUE,
    user_id INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    subcategory_id INTEGER,
    media_type_id INTEGER NOT NULL,
    vendor_id INTEGER NOT NULL,
    country TEXT,
    lat REAL,
    lng REAL,
    cell INTEGER,
    title_key TEXT NOT NULL,
    created_at REAL NOT NULL,
    views INTEGER NOT NULL,
    likes INTEGER NOT NULL,
    saves INTEGER NOT NULL,
    shared INTEGER NOT NULL,
    favorite INTEGER NOT NULL,
    trending REAL NOT NULL,
    popular REAL NOT NULL,
    featured_order INTEGER,
    random_key REAL NOT NULL,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tour_cards (
    tour_rid INTEGER PRIMARY KEY,
    card TEXT NOT NULL,
    feature TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tour_tags (
    tag_id INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    country TEXT NOT NULL,
    rid INTEGER NOT NULL,
    PRIMARY KEY (tag_id, category_id, country, rid)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS tour_text USING fts5(
    title, body, keys, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
-- Every term `tour_text` has held (terms.py): a typed word is searched as its few completions
-- rather than as an FTS5 prefix term, which reads and merges whole posting lists first.
CREATE TABLE IF NOT EXISTS text_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tiles (
    level INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    key INTEGER NOT NULL,
    n INTEGER NOT NULL,
    sum_lat REAL NOT NULL,
    sum_lng REAL NOT NULL,
    PRIMARY KEY (level, category_id, key)
) WITHOUT ROWID;
-- Category last in the key: a tag alone sums a key's few category rows, a tag + category reads one.
CREATE TABLE IF NOT EXISTS tag_tiles (
    level INTEGER NOT NULL,
    tag_id INTEGER NOT NULL,
    key INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    sum_lat REAL NOT NULL,
    sum_lng REAL NOT NULL,
    PRIMARY KEY (level, tag_id, key, category_id)
) WITHOUT ROWID;
-- A tag's located tours in Morton order: a tag map grouped live (deeper than the pyramid, or few
-- enough tours to list) is a range read of this key, never a probe of each tour in the box.
CREATE TABLE IF NOT EXISTS tag_cells (
    tag_id INTEGER NOT NULL,
    cell INTEGER NOT NULL,
    rid INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    lat REAL NOT NULL,
    lng REAL NOT NULL,
    PRIMARY KEY (tag_id, cell, rid)
) WITHOUT ROWID;
-- Listed tours per category, country and media type, with every roll-up to "any" (counts.py): the
-- total of a filter of only those is a read of a few rows, kept current by each write.
CREATE TABLE IF NOT EXISTS tour_counts (
    category_id INTEGER NOT NULL,
    country TEXT NOT NULL,
    media_type_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    located INTEGER NOT NULL,
    PRIMARY KEY (category_id, country, media_type_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS creators (
    rid INTEGER PRIMARY KEY,
    id INTEGER NOT NULL UNIQUE,
    user_id INTEGER NOT NULL,
    name_key TEXT NOT NULL,
    created_at REAL NOT NULL,
    followers INTEGER NOT NULL,
    views INTEGER NOT NULL,
    likes INTEGER NOT NULL,
    vt_count INTEGER NOT NULL,
    countries TEXT NOT NULL,
    categories TEXT NOT NULL,
    card TEXT NOT NULL,
    document TEXT
);
CREATE VIRTUAL TABLE IF NOT EXISTS creator_text USING fts5(
    name, body, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TABLE IF NOT EXISTS ads (
    id INTEGER PRIMARY KEY,
    random_key REAL NOT NULL,
    created_at REAL NOT NULL,
    card TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS suggest_items (
    sid INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    ref TEXT NOT NULL,
    text TEXT NOT NULL,
    weight REAL NOT NULL,
    topic_type TEXT,
    topic_id INTEGER,
    payload TEXT NOT NULL,
    UNIQUE (kind, ref)
);
CREATE VIRTUAL TABLE IF NOT EXISTS suggest_text USING fts5(
    text, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3'
);
-- The best items of a kind for a one- or two-letter prefix of any of their words, by weight: what
-- `suggest_text MATCH 'pa*'` answers after reading a thousand matches and their items. Filled from
-- the FTS vocabulary (suggestions.py), so its words are the FTS tokens exactly.
CREATE TABLE IF NOT EXISTS suggest_prefixes (
    kind TEXT NOT NULL,
    prefix TEXT NOT NULL,
    weight REAL NOT NULL,
    sid INTEGER NOT NULL,
    PRIMARY KEY (kind, prefix, weight DESC, sid)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vectors (id INTEGER PRIMARY KEY, vec BLOB NOT NULL);
"""


# The always-true term that lets the planner take ix_tours_cat_country_title_key (its partial WHERE).
TITLES_IN_PAIR = "title_key IS NOT NULL"


def index_statements() -> list[str]:
    """Secondary indexes: created after a bulk load (much faster than maintaining them row by row)."""
    statements = []
    # The trailing filter columns let SQLite test the commonest filters inside the index while it
    # walks a sort order, without reading each row.
    for column in SORT_COLUMNS:
        statements.append(f"CREATE INDEX IF NOT EXISTS ix_tours_{column} ON tours ({column}, id, category_id, country)")
        statements.append(
            f"CREATE INDEX IF NOT EXISTS ix_tours_cat_{column} ON tours (category_id, {column}, id, country)"
        )
        statements.append(
            f"CREATE INDEX IF NOT EXISTS ix_tours_country_{column} ON tours (country, {column}, id, category_id)"
        )
    statements += [
        # A-Z / Z-A inside one category and one country: a seek to the pair, where the country's title
        # key was walked past every other category's titles (2.7 ms p50 at 1M). Partial on the always
        # true `title_key IS NOT NULL`, which only those pages write (feed.py): left to itself, the
        # planner took it for category + country pages of every sort, sorting the pair's tours.
        "CREATE INDEX IF NOT EXISTS ix_tours_cat_country_title_key ON tours (category_id, country, title_key, id) "
        f"WHERE {TITLES_IN_PAIR}",
        "CREATE INDEX IF NOT EXISTS ix_tours_user ON tours (user_id, created_at, id)",
        # A creator's page by views (the profile's default order): a walk of this key instead of reading
        # and sorting every tour of a creator with thousands (25 ms p50 at 1M).
        "CREATE INDEX IF NOT EXISTS ix_tours_user_views ON tours (user_id, views, id)",
        "CREATE INDEX IF NOT EXISTS ix_tours_featured ON tours (featured_order, id) WHERE featured_order IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS ix_tours_cell ON tours (cell, lat, lng, id)",
        "CREATE INDEX IF NOT EXISTS ix_tours_cat_cell ON tours (category_id, cell, lat, lng, id)",
        # Near Me with a country filter walks the Morton quadtree inside the country (nearby.py);
        # category and id ride along so the walk never reads a row. Used only through INDEXED BY:
        # left to itself, the planner took it for category + country filters it does worse.
        "CREATE INDEX IF NOT EXISTS ix_tours_country_cell ON tours (country, cell, lat, lng, category_id, id)",
        # Near Me with category + country: the same walk, inside the category too. Through the country
        # key alone, a probe read about as many entries per match as there are categories (14 ms p50 at
        # 1M for one category of US tours seen from Paris). Partial on `cell IS NOT NULL`, which only
        # the walk's `cell BETWEEN` implies: no feed or map filter without a cell range can pick it.
        "CREATE INDEX IF NOT EXISTS ix_tours_country_cat_cell ON tours (country, category_id, cell, lat, lng, id) "
        "WHERE cell IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS ix_tours_lat ON tours (lat, lng)",
        "CREATE INDEX IF NOT EXISTS ix_tour_tags_rid ON tour_tags (rid)",
        # A tag in a country without a category: a seek, where the tag key (tag, category, country)
        # was read for every category of the tag (1.3 ms p50 at 1M for one tag in France).
        "CREATE INDEX IF NOT EXISTS ix_tour_tags_country ON tour_tags (tag_id, country, rid)",
        "CREATE INDEX IF NOT EXISTS ix_creators_views ON creators (views, id)",
        "CREATE INDEX IF NOT EXISTS ix_creators_followers ON creators (followers, id)",
        "CREATE INDEX IF NOT EXISTS ix_creators_name ON creators (name_key, id)",
        "CREATE INDEX IF NOT EXISTS ix_creators_created ON creators (created_at, id)",
        "CREATE INDEX IF NOT EXISTS ix_suggest_kind_weight ON suggest_items (kind, weight)",
        "CREATE INDEX IF NOT EXISTS ix_suggest_prefixes_sid ON suggest_prefixes (sid)",
    ]
    return statements


def index_table(statement: str) -> str:
    """The table an index statement indexes."""
    return statement.split(" ON ", 1)[1].split(" ", 1)[0]


def index_group(statement: str) -> str:
    """What an index statement serves, for the rebuild's phase times: a sort order, geo, or other."""
    name = statement.split(" ON ")[0].rsplit(" ", 1)[-1]
    if any(name.endswith(f"_{column}") for column in SORT_COLUMNS) and name.startswith("ix_tours_"):
        return "sorts"
    if "cell" in name or name == "ix_tours_lat":
        return "geo"
    return "other"


# The layout each kind of stored row follows, raised when its rows gain something a reindex must fill
# (the embedded counterpart of the mapping versions in mappings/). Creators 2: `document`, the whole
# creator document with the Full Profile fields (creators.v2.json on Elasticsearch). Ads 2: the card
# carries the ad's tag ids and rank, which the serving chooses by (ads.v2.json). Tours 2: the Near Me
# key for category + country (ix_tours_country_cat_cell), a creator's tours by views
# (ix_tours_user_views) and `text_terms`; an older file gets them created (and the terms filled) on
# opening, without the statistics a rebuild's ANALYZE gives the planner, so it asks for a rebuild.
# Tours 3: the kept totals (`tour_counts`, filled on opening an older file), a tag in a country
# (ix_tour_tags_country) and A-Z in a category and a country (ix_tours_cat_country_title_key).
# Tours 4: the FTS filter tokens (`tour_text.keys`) are one private-use character each
# (rows.filter_token), so the prefix indexes hold nothing for them; an older file's "xc12" tokens
# match no filter any more, so it must be rebuilt.
LAYOUT_VERSIONS = {"creators": 2, "ads": 2, "tours": 4}


def note_current_layouts(connection: sqlite3.Connection) -> None:
    """Record that every kind's rows follow this code's layout: a new or emptied file, a rebuild."""
    connection.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [(f"layout.{kind}", str(version)) for kind, version in LAYOUT_VERSIONS.items()],
    )
    note_pyramid_levels(connection)


# The pyramids' levels, noted in `meta`: a file written with other levels (before the city levels
# and the shallower tag pyramid) refills `tiles` and drops the tag levels no longer kept when opened,
# which takes seconds, instead of a reindex.
PYRAMID_LEVELS_KEY = "pyramid.levels"


def pyramid_levels_label() -> str:
    """`tiles levels/tag_tiles levels`."""
    return "/".join(f"{levels.start}..{levels.stop - 1}" for levels in (PYRAMID_LEVELS, TAG_PYRAMID_LEVELS))


def note_pyramid_levels(connection: sqlite3.Connection) -> None:
    connection.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (PYRAMID_LEVELS_KEY, pyramid_levels_label()),
    )


def pyramid_levels_current(connection: sqlite3.Connection) -> bool:
    row = connection.execute("SELECT value FROM meta WHERE key = ?", (PYRAMID_LEVELS_KEY,)).fetchone()
    return row is not None and row[0] == pyramid_levels_label()


def outdated_kinds(connection: sqlite3.Connection) -> list[str]:
    """Kinds whose rows were written by an older layout (a file from before `layout.<kind>` was noted
    counts as version 1)."""
    stored = dict(connection.execute("SELECT key, value FROM meta WHERE key LIKE 'layout.%'").fetchall())
    return [kind for kind, version in LAYOUT_VERSIONS.items() if int(stored.get(f"layout.{kind}", 1)) < version]


def generation(connection: sqlite3.Connection) -> int:
    """A number every write raises: a written row's `tours.version` is taken from it (writes.py)."""
    row = connection.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return int(row[0]) if row else 0


def listing_generation(connection: sqlite3.Connection) -> int:
    """A number every write raises but counter updates: what a filter matches and totals, and the
    ads, change only with it, so totals, text matches and the held ads are cached under it
    (pages.CountCache, pages.AdRotation). Views, likes and saves arrive all day long; with the plain
    generation each of them emptied every cache of every process."""
    row = connection.execute("SELECT value FROM meta WHERE key = 'listing'").fetchone()
    return int(row[0]) if row else 0


def bump_generation(connection: sqlite3.Connection, *, counters_only: bool = False) -> None:
    """Inside the write's transaction. `counters_only`: the write changed views, likes, saves,
    shares or scores and nothing a filter reads, so the listing generation stays."""
    rows = "('generation', '1')" if counters_only else "('generation', '1'), ('listing', '1')"
    connection.execute(
        f"INSERT INTO meta (key, value) VALUES {rows} "
        "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
    )
