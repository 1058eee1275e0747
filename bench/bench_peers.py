"""The embedded index beside PostgreSQL and tantivy (issue 18 part 1): the same corpus loaded into each,
the benchmark's query set (bench/query_set.py) asked of all three, every answer checked against ours
(the 48 ids bar ties and the exact total; the map's clusters and points; the suggestions), then
p50 / p99 per call and side and the ratio peer ÷ ours.

    .venv/bin/python -m bench.bench_index --tours 100000 --runs 5     # builds data/bench/100000/
    .venv/bin/python -m bench.bench_peers --tours 100000 --runs 20 --out /tmp/peers.md
    .venv/bin/python -m bench.bench_peers --corpus /work/main/data/bench/1000000 --runs 30 --append

The corpus is read, never written: the peers load the built index's rows (bench/peers/corpus.py says
why), into a throw-away PostgreSQL database (`touratlas_peers`, dropped and made again by each load,
then left for `--reuse`: `DROP DATABASE touratlas_peers WITH (FORCE)` when done) and a tantivy
index under data/bench/<N>/peers/. `--reuse` skips the loads.
tantivy is optional: pip install -c constraints.txt -e '.[bench]'.

Ours is timed twice: as it serves (totals cached per index generation by CountCache, which every
write invalidates) and with the cache emptied before each call (every total counted), since the
peers count on every call. Totals the index keeps current on each write (categories, countries and
media types only: indexer/embedded/counts.py) are read, not counted, in both.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from bench.bench_index import ROOT, timed
from bench.peers import postgres, tantivy_side
from bench.peers.answers import compare
from bench.peers.corpus import index_file, open_read_only, read_suggest_items, read_tours
from bench.peers.ours import open_read_only_index
from bench.query_set import BenchQuery, ask, corpus_facts, query_set

WARMUP = 5  # psycopg prepares a statement at its fifth run
GOAL = 10.0


@dataclass
class Timing:
    p50: float
    p99: float


@dataclass
class Row:
    name: str
    ours: Timing
    ours_uncached: Timing
    peers: dict[str, Timing] = field(default_factory=dict)
    checks: dict[str, str] = field(default_factory=dict)


def measure(function: Callable[[], Any], runs: int) -> Timing:
    return Timing(*timed(function, runs, WARMUP))


def only_360_of(corpus: Path) -> tuple[int, ...]:
    """The 360° media types, read from the corpus's app database without writing to it."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from app.classifications.service import media_type_ids_360

    engine = create_engine(f"sqlite:///file:{corpus / 'bench.db'}?mode=ro&uri=true")
    with Session(engine) as session:
        return media_type_ids_360(session)


def load_peers(reference: Path, peers_dir: Path, database: str, sides: list[str]) -> dict[str, dict[str, float]]:
    figures: dict[str, dict[str, float]] = {}
    if "postgres" in sides:
        print("loading PostgreSQL", flush=True)
        with open_read_only(reference) as connection:
            figures["PostgreSQL"] = postgres.load(
                read_tours(connection), read_suggest_items(connection), database=database
            )
        print(f"  {figures['PostgreSQL']}", flush=True)
    if "tantivy" in sides:
        print("loading tantivy", flush=True)
        with open_read_only(reference) as connection:
            figures["tantivy"] = tantivy_side.load(
                read_tours(connection), read_suggest_items(connection), peers_dir / "tantivy"
            )
        print(f"  {figures['tantivy']}", flush=True)
    return figures


def run(args: argparse.Namespace) -> tuple[str, str]:
    corpus: Path = args.corpus or ROOT / "data" / "bench" / str(args.tours)
    peers_dir = ROOT / "data" / "bench" / corpus.name / "peers"
    sides = ["postgres"] + (["tantivy"] if tantivy_side.available() is None else [])
    if tantivy_side.available() is not None:
        print(f"tantivy left out: {tantivy_side.available()}", flush=True)
    index_path = index_file(corpus / "index")  # one file for the whole run (ours.py)
    reused = set(sides) if args.reuse == [] else set(args.reuse or ())
    figures = load_peers(index_path, peers_dir, args.database, [side for side in sides if side not in reused])
    ours = open_read_only_index(index_path)
    reference = open_read_only(index_path)
    peers: list[Any] = [postgres.PostgresPeer(args.database)]
    if "tantivy" in sides:
        peers.append(tantivy_side.TantivyPeer(peers_dir / "tantivy", index_path))
    facts = corpus_facts(ours, only_360_of(corpus))
    rows: list[Row] = []
    loads: list[float] = []
    for name, query in query_set(facts):
        if args.only and not re.search(args.only, name):
            continue
        rows.append(run_one(name, query, ours, peers, reference, args.runs))
        loads.append(os.getloadavg()[0])
        print(line_of(rows[-1]), flush=True)
    explained = explain_slow(rows, dict(query_set(facts)), peers[0]) if args.explain else ""
    for peer in peers:
        peer.close()
    return report(corpus, index_path, args.runs, rows, figures, loads, ours.document_count(), explained), explained


def run_one(name: str, query: BenchQuery, ours: Any, peers: list[Any], reference: Any, runs: int) -> Row:
    mine = ask(ours, query)

    def uncached() -> Any:
        ours._counts.clear()
        return ask(ours, query)

    row = Row(name, measure(partial(ask, ours, query), runs), measure(uncached, runs))
    for peer in peers:
        row.checks[peer.name] = compare(reference, query, mine, ask(peer, query))
        row.peers[peer.name] = measure(partial(ask, peer, query), runs)
    return row


def ratio(peer: Timing, ours: Timing) -> float:
    return peer.p50 / max(ours.p50, 1e-6)


def line_of(row: Row) -> str:
    parts = [f"{row.name:<52} ours {row.ours.p50:7.2f}/{row.ours.p99:7.2f} ({row.ours_uncached.p50:7.2f})"]
    for name, timing in row.peers.items():
        parts.append(f"{name} {timing.p50:7.2f}/{timing.p99:7.2f} x{ratio(timing, row.ours):6.1f} {row.checks[name]}")
    return " | ".join(parts)


def explain_slow(rows: list[Row], queries: dict[str, BenchQuery], peer: postgres.PostgresPeer) -> str:
    """EXPLAIN ANALYZE of every statement PostgreSQL ran for the calls where it is < GOAL x ours."""
    out: list[str] = []
    for row in rows:
        timing = row.peers.get(peer.name)
        if timing is None or ratio(timing, row.ours) >= GOAL:
            continue
        peer.trace = []
        ask(peer, queries[row.name])
        statements, peer.trace = peer.trace, None
        out.append(f"## {row.name} (x{ratio(timing, row.ours):.1f})")
        for sql, params in statements:
            out += [sql, peer.explain(sql, params), ""]
    return "\n".join(out)


def report(
    corpus: Path,
    index_path: Path,
    runs: int,
    rows: list[Row],
    figures: dict[str, dict[str, float]],
    loads: list[float],
    tours: int,
    explained: str,
) -> str:
    import sqlite3

    import psycopg

    with psycopg.connect(postgres.dsn("postgres")) as connection:
        server = str(connection.execute("SHOW server_version").fetchone()[0])  # type: ignore[index]
        buffers = str(connection.execute("SHOW shared_buffers").fetchone()[0])  # type: ignore[index]
    tantivy_version = tantivy_side.version()
    names = list(rows[0].peers) if rows else []
    lines = [
        f"## The embedded index beside PostgreSQL and tantivy (issue 18 part 1), {tours:,} tours, "
        f"{datetime.now(UTC):%Y-%m-%d}",
        "",
        f"`python -m bench.bench_peers` on {corpus}. Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, PostgreSQL {server} "
        f"(shared_buffers {buffers}; the database: work_mem 64MB, random_page_cost 1.1, JIT off, no parallel "
        f"workers), tantivy {tantivy_version} (Python binding). {runs} runs per call after {WARMUP} warm-up runs, "
        "p50 / p99 in ms, index time only (no HTTP). "
        f"Load average (1 min) while timing: {min(loads, default=0):.1f}-{max(loads, default=0):.1f}, "
        f"median {sorted(loads)[len(loads) // 2] if loads else 0:.1f}.",
        "",
    ]
    ours_bytes = index_path.stat().st_size
    lines.append(f"- ours: the index file {ours_bytes / 1e6:,.0f} MB (built by bench_index's reindex).")
    lines += [build_line(name, numbers) for name, numbers in figures.items()]
    lines += [
        "",
        "Ratios are the peer's p50 ÷ ours as served (totals cached per index generation), and in brackets ÷ ours "
        "with every total counted. Answers: `same`, `same bar ties (n rows)`, or the first difference.",
        "",
        "| call | ours | ours, totals counted | "
        + " | ".join(f"{name} | {name} ÷ ours" for name in names)
        + " | answers "
        + " · ".join(names)
        + " |",
        "|---|---:|---:|" + "---:|---:|" * len(names) + "---|",
    ]
    for row in rows:
        cells = [row.name, fmt(row.ours), f"{row.ours_uncached.p50:.2f}"]
        for name in names:
            timing = row.peers[name]
            cells += [fmt(timing), f"{ratio(timing, row.ours):.1f}x ({ratio(timing, row.ours_uncached):.1f}x)"]
        cells.append(" · ".join(row.checks[name] for name in names))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for name in names:
        met = sum(1 for row in rows if ratio(row.peers[name], row.ours) >= GOAL)
        counted = sum(1 for row in rows if ratio(row.peers[name], row.ours_uncached) >= GOAL)
        wrong = sum(1 for row in rows if row.checks[name].startswith("MISMATCH"))
        lines.append(
            f"- {name}: ours ≥ {GOAL:.0f}x faster on {met} of {len(rows)} calls as served, on {counted} with every "
            f"total counted; {wrong} answers differ."
        )
    if explained:
        lines.append("")
        lines.append("EXPLAIN ANALYZE of PostgreSQL's calls under the goal: see the --explain file.")
    return "\n".join(lines)


def build_line(name: str, numbers: dict[str, float]) -> str:
    size = numbers.get("bytes", 0) / 1e6
    if "copy_s" in numbers:
        return (
            f"- {name} load: COPY {numbers['copy_s']:.0f} s, {len(postgres.index_statements())} indexes "
            f"{numbers['index_s']:.0f} s, VACUUM ANALYZE {numbers['analyze_s']:.0f} s; database {size:,.0f} MB."
        )
    return f"- {name} load: {numbers.get('build_s', 0):.0f} s (2 writer threads); index {size:,.0f} MB."


def fmt(timing: Timing) -> str:
    return f"{timing.p50:.2f} / {timing.p99:.2f}"


def add_to_results(section: str) -> None:
    """The section goes first among RESULTS.md's sections, which run newest first."""
    path = ROOT / "bench" / "RESULTS.md"
    text = path.read_text()
    first = text.find("\n## ")
    at = len(text) if first < 0 else first + 1
    path.write_text(text[:at] + section + "\n\n" + text[at:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tours", type=int, default=100_000, help="the corpus data/bench/<tours>/ of this worktree")
    parser.add_argument("--corpus", type=Path, help="a corpus folder elsewhere (bench.db and index/), read only")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--database", default=postgres.DATABASE)
    parser.add_argument(
        "--reuse",
        nargs="*",
        choices=["postgres", "tantivy"],
        help="query these peers (all when none is named) as the last run loaded them",
    )
    parser.add_argument("--only", help="only the calls whose name matches this regular expression")
    parser.add_argument("--explain", type=Path, help="write EXPLAIN ANALYZE of PostgreSQL's slow calls here")
    parser.add_argument("--out", type=Path, help="also write the markdown report here")
    parser.add_argument("--append", action="store_true", help="add the report to bench/RESULTS.md (newest first)")
    args = parser.parse_args()
    args.explain_path = args.explain
    args.explain = args.explain is not None
    table, explained = run(args)
    print("\n" + table)
    if args.explain_path and explained:
        args.explain_path.write_text(explained + "\n")
    if args.out:
        args.out.write_text(table + "\n")
    if args.append:
        add_to_results(table)


if __name__ == "__main__":
    main()
