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
import resource
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
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


def _cpu_seconds() -> float:
    """CPU time of this process's threads and of its children that ended (the rebuild's reading
    process): on a shared machine, what the reindex cost, whatever the others took of the cores."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


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
        started, cpu = time.monotonic(), _cpu_seconds()
        counts = reindex(session_factory, index=index, progress=lambda m: print(f"  {m}", flush=True))
        elapsed = time.monotonic() - started
        figures["reindex_s"] = elapsed
        figures["reindex_cpu_s"] = _cpu_seconds() - cpu
        figures["reindex_docs_per_s"] = counts["tours"] / elapsed
    return index, figures


def run(tours: int, runs: int, rebuild: bool) -> str:
    from app.classifications.service import media_type_ids_360
    from app.core.db import get_sessionmaker
    from bench.query_set import ask, corpus_facts, query_set

    index, figures = prepare(tours, rebuild)
    with get_sessionmaker()() as session:
        facts = corpus_facts(index, media_type_ids_360(session))
    rows: list[tuple[str, float, float]] = []
    for name, query in query_set(facts):
        p50, p99 = timed(partial(ask, index, query), runs)
        rows.append((name, p50, p99))
        print(f"  {name:<58} {p50:8.2f} {p99:8.2f}", flush=True)
    return report(tours, runs, rows, figures)


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
            f"(no embeddings); CPU {figures['reindex_cpu_s']:.1f} s (threads and child processes)."
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
