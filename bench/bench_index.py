"""Embedded index benchmark: build a demo corpus of N tours, reindex it, and time every query the
product asks (index time only, no HTTP), p50/p99 over repeated runs after warm-up.

    .venv/bin/python -m bench.bench_index --tours 100000
    .venv/bin/python -m bench.bench_index --tours 1000000 --runs 200

The corpus database and index live under data/bench/<N>/ and are reused by later runs.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def timed(function: Callable[[], Any], runs: int, warmup: int = 5) -> tuple[float, float]:
    for _ in range(warmup):
        function()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        samples.append((time.perf_counter() - started) * 1000)
    return percentile(samples, 0.5), percentile(samples, 0.99)


def prepare(tours: int, rebuild: bool) -> tuple[Any, dict[str, float]]:
    directory = ROOT / "data" / "bench" / str(tours)
    directory.mkdir(parents=True, exist_ok=True)
    os.environ.update(
        {
            "DATA_DIR": str(directory),
            "DATABASE_URL": f"sqlite:///{directory / 'bench.db'}",
            "SEED_DEMO": "false",
            "ELASTICSEARCH_URL": "",
            "REDIS_URL": "",
        }
    )
    from app.classifications.seed import load_dictionaries
    from app.core.db import get_sessionmaker
    from app.core.migrate import upgrade_database
    from app.core.settings import get_settings
    from app.search.documents import listable_tour_count
    from app.search.registry import get_index
    from app.search.sync import reindex
    from demo.loader import load_demo

    figures: dict[str, float] = {}
    upgrade_database(get_settings().sqlalchemy_url)
    session_factory = get_sessionmaker()
    with session_factory.begin() as session:
        load_dictionaries(session)
    started = time.monotonic()
    load_demo(
        session_factory, tours=tours, creators=max(100, tours // 1000), progress=lambda m: print(f"  {m}", flush=True)
    )
    figures["load_s"] = time.monotonic() - started
    index = get_index()
    with session_factory() as session:
        listable = listable_tour_count(session)
    if rebuild or index.document_count() != listable:
        started = time.monotonic()
        counts = reindex(session_factory, index=index, progress=lambda m: print(f"  {m}", flush=True))
        elapsed = time.monotonic() - started
        figures["reindex_s"] = elapsed
        figures["reindex_docs_per_s"] = counts["tours"] / elapsed
    return index, figures


def run(tours: int, runs: int, rebuild: bool) -> str:
    from indexer.queries import BBox, FeedQuery, MapQuery, Sort, SuggestKind, SuggestQuery, TourFilter

    index, figures = prepare(tours, rebuild)
    rng = random.Random(1)
    sample = index.feed(FeedQuery(sort=Sort.VIEWS, limit=500)).docs
    categories = sorted(
        {
            doc.get("category_id")
            for doc in index.map_area(
                MapQuery(filter=TourFilter(), bbox=BBox(-10, 35, 30, 60), zoom=14, max_points=500)
            ).points
            if doc.get("category_id")
        }
    )
    category = categories[0] if categories else 1
    rows: list[tuple[str, float, float]] = []

    def measure(name: str, function: Callable[[], Any]) -> None:
        p50, p99 = timed(function, runs)
        rows.append((name, p50, p99))
        print(f"  {name:<58} {p50:8.2f} {p99:8.2f}", flush=True)

    filters = {
        "no filter": TourFilter(),
        "category": TourFilter(categories=(category,)),
        "country": TourFilter(countries=("US",)),
        "category + country": TourFilter(categories=(category,), countries=("US",)),
        "country + tag": TourFilter(countries=("FR",), tags=(1,)),
    }
    for sort in (
        Sort.NEWEST,
        Sort.VIEWS,
        Sort.LIKES,
        Sort.SAVES,
        Sort.SHARES,
        Sort.AZ,
        Sort.ZA,
        Sort.TRENDING,
        Sort.POPULAR,
        Sort.FAVORITE,
        Sort.RANDOM,
    ):
        for label, tour_filter in filters.items():
            for offset in (0, 960):
                query = FeedQuery(filter=tour_filter, sort=sort, limit=48, offset=offset, seed="bench")
                measure(f"feed {sort.value}, {label}, offset {offset}", lambda q=query: index.feed(q))
    for label, tour_filter in filters.items():
        query = FeedQuery(filter=tour_filter, sort=Sort.NEAR_ME, near=(48.85, 2.35), limit=48)
        measure(f"feed near me, {label}", lambda q=query: index.feed(q))
    # Issue 18 part 5: the added-date range and the 360° switch; part 4: an owner's page with its
    # unlisted tours.
    for label, tour_filter in new_filters(category, sample).items():
        for sort in (Sort.NEWEST, Sort.VIEWS):
            query = FeedQuery(filter=tour_filter, sort=sort, limit=48)
            measure(f"feed {sort.value}, {label}", lambda q=query: index.feed(q))
    for word in ("museum", "sunset harbour", "'old town"):
        query = FeedQuery(filter=TourFilter(text=word, categories=(category,)), sort=Sort.VIEWS, limit=48)
        measure(f"full text '{word}' + category, by views", lambda q=query: index.feed(q))
        query = FeedQuery(filter=TourFilter(text=word), sort=Sort.RELEVANCE, limit=48)
        measure(f"full text '{word}', relevance", lambda q=query: index.feed(q))
    views = {
        "world z2": (BBox(-180, -85, 180, 85), 2.0),
        "country z5": (BBox(-5, 41, 10, 51.5), 5.0),
        "city z12": (BBox(2.2, 48.78, 2.5, 48.93), 12.0),
    }
    for label, (bbox, zoom) in views.items():
        for filter_label, tour_filter in (
            ("", TourFilter()),
            (", category", TourFilter(categories=(category,))),
            (", tag", TourFilter(tags=(1,))),
        ):
            query = MapQuery(filter=tour_filter, bbox=bbox, zoom=zoom, max_points=500)
            measure(f"map {label}{filter_label}", lambda q=query: index.map_area(q))
    for prefix in ("pa", "mus", "#sun", "@a", "new yo"):
        query = SuggestQuery(text=prefix, limit=10)
        measure(f"search-as-you-type '{prefix}'", lambda q=query: index.suggest(q))
    query = SuggestQuery(text="bar", kinds=(SuggestKind.TOUR,), limit=10)
    measure("typeahead top tours for 'bar'", lambda q=query: index.suggest(q))
    del rng
    return report(tours, runs, rows, figures)


def new_filters(category: int, sample: list[Any]) -> dict[str, Any]:
    """The filters issue 18 added, on the bench corpus: a year of additions, the 360° media types
    (read from the database, as the feed does), both with a category, and one creator's page."""
    from app.classifications.service import media_type_ids_360
    from app.core.db import get_sessionmaker
    from indexer.queries import TourFilter

    year_ago = time.time() - 365 * 86_400
    with get_sessionmaker()() as session:
        only_360 = media_type_ids_360(session)
    owner = int(sample[0]["userid"]) if sample else 1
    return {
        "added in the past year": TourFilter(created_from=year_ago),
        "category + added in the past year": TourFilter(categories=(category,), created_from=year_ago),
        "360 only": TourFilter(only_media_types=only_360),
        "category + 360 only": TourFilter(categories=(category,), only_media_types=only_360),
        "a creator's page, unlisted included": TourFilter(user_ids=(owner,), with_unlisted=True),
    }


def report(tours: int, runs: int, rows: list[tuple[str, float, float]], figures: dict[str, float]) -> str:
    lines = [
        f"### Embedded index, {tours:,} tours — {datetime.now(UTC):%Y-%m-%d}",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"SQLite {__import__('sqlite3').sqlite_version}; {runs} runs per query after 5 warm-up runs; ms.",
        "",
    ]
    if "reindex_s" in figures:
        lines.append(
            f"Full reindex: {figures['reindex_s']:.1f} s, {figures['reindex_docs_per_s']:,.0f} documents/s "
            "(no embeddings)."
        )
        lines.append("")
    lines += ["| query | p50 ms | p99 ms |", "|---|---:|---:|"]
    lines += [f"| {name} | {p50:.2f} | {p99:.2f} |" for name, p50, p99 in rows]
    worst = max(rows, key=lambda row: row[2])
    lines += [
        "",
        f"Worst p99: {worst[0]} ({worst[2]:.1f} ms); median of p50s {statistics.median(r[1] for r in rows):.2f} ms.",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tours", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--rebuild", action="store_true", help="reindex even when the index is complete")
    parser.add_argument("--out", type=Path, help="also write the markdown table here")
    args = parser.parse_args()
    table = run(args.tours, args.runs, args.rebuild)
    print("\n" + table)
    if args.out:
        args.out.write_text(table + "\n")


if __name__ == "__main__":
    main()
