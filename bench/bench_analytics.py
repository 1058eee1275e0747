"""Analytics (issue 15 part 3): event ingest, the rollup of a big backlog, and a creator's answer.

    .venv/bin/python -m bench.bench_analytics ingest --db sqlite --events 200000
    .venv/bin/python -m bench.bench_analytics ingest --db postgresql --events 200000
    .venv/bin/python -m bench.bench_analytics rollup --events 10000000 --tours 1000000   # PostgreSQL
    .venv/bin/python -m bench.bench_analytics query --runs 200                           # after rollup

`ingest` runs the real write path of an event twice. First inside requests: request threads (4, like the
API's thread pool) each open a session, record the event (app.analytics.service.record_tour_event: kept
on the session's after-commit queue), commit and close; the commit hands the event to the process's
sink, whose thread writes batches with one multi-row INSERT each (app/analytics/recorder.py). Events/s
counts from the first request until the last event is in the table. Then the write path alone
(`write_path`): the same events recorded on a session each thread keeps open, so a request's own session
cost (~80 µs of CPU, what bench_http measures) is left out. A fresh database each run (a SQLite file
under data/bench/analytics/, or the PostgreSQL database touratlas_bench_analytics, dropped first).

`rollup` (PostgreSQL) builds the corpus with generate_series in SQL: `--creators` users and creators,
`--tours` tours (creator k owns a block of consecutive tours), `--events` events over the last 90
days, skewed as real traffic is (tour and ad popularity ~ u^3: the first creators' tours take most of
it); 70 % views, 10 % likes, 7 % saves, 5 % shares, 3 % follows, 4 % ad impressions, 1 % ad clicks; the
events table's indexes are built after the load, as a restore would. Then it times the first rollup
run over the whole backlog (app.analytics.rollup.roll_up) and an incremental run after one more
minute of events. `query` times the answers of the analytics page over 90 days in Europe/Berlin
(service calls in process: the day series that totals and both charts read, and the per-tour table's
first page) for the busiest creator and a median one; p50 and p99 of --runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "bench" / "analytics"
PG_ADMIN = os.environ.get("BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_NAME = "touratlas_bench_analytics"


def pg_url() -> str:
    return PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + f"/{PG_NAME}"


def configure(db: str, *, fresh: bool) -> str:
    """Point the app's settings at the bench database (fresh: dropped and migrated)."""
    DATA.mkdir(parents=True, exist_ok=True)
    if db == "sqlite":
        path = DATA / "bench.db"
        if fresh:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        url = f"sqlite:///{path}"
    else:
        url = pg_url()
        if fresh:
            import psycopg

            with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{PG_NAME}" WITH (FORCE)')
                connection.execute(f'CREATE DATABASE "{PG_NAME}"')
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DATA_DIR": str(DATA),
            "SEED_DEMO": "false",
            "TASKS_EAGER": "false",
            "EMBEDDINGS_ENABLED": "false",
            "REDIS_URL": "",
        }
    )
    if fresh:
        from app.core.migrate import upgrade_database

        upgrade_database(url)
    return url


# ------------------------------------------------------------------------------------------- ingest


def ingest(db: str, events: int, threads: int) -> None:
    configure(db, fresh=True)
    from app.analytics import recorder
    from app.analytics.models import EventKind
    from app.analytics.recorder import count_events, flush_events
    from app.analytics.service import record_tour_event
    from app.core.db import get_sessionmaker

    factory = get_sessionmaker()
    sink = recorder.get_sink()
    kinds = (EventKind.view, EventKind.view, EventKind.view, EventKind.like, EventKind.save, EventKind.share)
    per_thread = events // threads
    latencies: list[float] = []
    lock = threading.Lock()

    def requests(offset: int, events: bool = True) -> None:
        mine: list[float] = []
        for number in range(per_thread):
            tour: Any = SimpleNamespace(id=1 + (offset + number) % 50_000, creator_id=1 + (offset + number) % 500)
            started = time.perf_counter()
            session = factory()
            session.begin()
            if events:
                record_tour_event(session, tour, kinds[number % len(kinds)], user_id=number, viewer_key=f"u:{number}")
            session.commit()
            session.close()
            mine.append(time.perf_counter() - started)
        if events:
            with lock:
                latencies.extend(mine)

    # The same requests without an event: what a request's session costs anyway.
    cpu_started = time.process_time()
    baseline = [threading.Thread(target=requests, args=(index * per_thread, False)) for index in range(threads)]
    for worker in baseline:
        worker.start()
    for worker in baseline:
        worker.join()
    baseline_cpu = time.process_time() - cpu_started

    started = time.perf_counter()
    cpu_started = time.process_time()
    workers = [threading.Thread(target=requests, args=(index * per_thread,)) for index in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    requests_done = time.perf_counter() - started
    flush_events()
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    with factory() as session:
        stored = count_events(session)
    total = per_thread * threads
    assert stored == total, (stored, total)
    latencies.sort()
    print(
        f"ingest {db}: {total:,} events by {threads} request threads in {elapsed:.2f} s = "
        f"{total / elapsed:,.0f} events/s (requests done after {requests_done:.2f} s; the sink wrote "
        f"{sink.written:,}); per request p50 {latencies[len(latencies) // 2] * 1e6:.0f} µs, "
        f"p99 {latencies[int(len(latencies) * 0.99)] * 1e6:.0f} µs; this process used {cpu:.2f} CPU-s = "
        f"{total / cpu:,.0f} events per CPU-second"
    )
    marginal = max(cpu - baseline_cpu, 1e-9) / total
    print(
        f"ingest {db}: the same requests without their event used {baseline_cpu:.2f} CPU-s: an event adds "
        f"{marginal * 1e6:.1f} µs of CPU (recording, hand-over, its share of the INSERT) = "
        f"{1 / marginal:,.0f} events per CPU-second on top of the requests"
    )
    write_path(factory, sink, threads, per_thread, kinds, before=stored)


def write_path(factory: Any, sink: Any, threads: int, per_thread: int, kinds: tuple[Any, ...], *, before: int) -> None:
    """The event's own path, without a request's session around it: each thread keeps one session
    (as a request has one anyway) and for every event begins, records and commits. A commit that
    ran no SQL takes no connection, so what is timed is the event's: record_tour_event, the
    after-commit hand-over, the sink's batched COPY / INSERT and the live push's bookkeeping,
    until the last event is in the table."""
    from app.analytics.recorder import count_events, flush_events
    from app.analytics.service import record_tour_event

    def producer(offset: int) -> None:
        session = factory()
        for number in range(per_thread):
            tour: Any = SimpleNamespace(id=1 + (offset + number) % 50_000, creator_id=1 + (offset + number) % 500)
            session.begin()
            record_tour_event(session, tour, kinds[number % len(kinds)], user_id=number, viewer_key=f"u:{number}")
            session.commit()
        session.close()

    started = time.perf_counter()
    cpu_started = time.process_time()
    producers = [threading.Thread(target=producer, args=(index * per_thread,)) for index in range(threads)]
    for worker in producers:
        worker.start()
    for worker in producers:
        worker.join()
    flush_events()
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    total = per_thread * threads
    with factory() as session:
        stored = count_events(session) - before
    assert stored == total, (stored, total)
    print(
        f"ingest {db_name(factory)} write path: {total:,} events by {threads} threads in {elapsed:.2f} s = "
        f"**{total / elapsed:,.0f} events/s** until the last is in the table; {cpu:.2f} CPU-s = "
        f"{total / cpu:,.0f} events per CPU-second"
    )


def db_name(factory: Any) -> str:
    return str(factory.kw["bind"].dialect.name)


# ------------------------------------------------------------------------------------------- rollup


def _clone(connection: Any, table: str, template_id: int, count: int, overrides: dict[str, str]) -> int:
    """Insert `count` copies of one row (g = 1..count in the overrides); returns the first new id."""
    from sqlalchemy import text

    columns = [
        name
        for (name,) in connection.execute(
            text("SELECT column_name FROM information_schema.columns WHERE table_name = :t ORDER BY ordinal_position"),
            {"t": table},
        )
        if name != "id"
    ]
    values = ", ".join(overrides.get(name, f"t.{name}") for name in columns)
    first = connection.execute(
        text(
            f"INSERT INTO {table} ({', '.join(columns)}) SELECT {values} FROM {table} AS t "
            f"CROSS JOIN generate_series(1, :count) AS g WHERE t.id = :template ORDER BY g RETURNING id"
        ),
        {"count": count, "template": template_id},
    ).scalars()
    return min(first)


def build_corpus(events: int, tours: int, creators: int) -> None:
    from sqlalchemy import text

    from app.core.db import get_engine, get_sessionmaker
    from tests import factories

    engine = get_engine()
    per_creator = max(1, tours // creators)
    started = time.perf_counter()
    with get_sessionmaker()() as session:  # one of each row, through the app's own factories
        catalog = factories.catalog(session)
        owner = factories.user(session)
        creator = factories.creator(session, owner)
        tour = catalog.tour(session, owner, creator_id=creator.id)
        session.commit()
        template = (owner.id, creator.id, tour.id)
    with engine.begin() as connection:
        first_user = _clone(
            connection,
            "users",
            template[0],
            creators,
            {"email": "'bench' || g || '@example.com'", "platform_username": "'bench' || g"},
        )
        first_creator = _clone(
            connection,
            "creators",
            template[1],
            creators,
            {"user_id": f"{first_user - 1} + g", "creator_name": "'Bench creator ' || g"},
        )
        first_tour = _clone(
            connection,
            "tours",
            template[2],
            tours,
            {
                "guid": "md5(g::text)",
                "user_id": f"{first_user} + (g - 1) / {per_creator}",
                "creator_id": f"{first_creator} + (g - 1) / {per_creator}",
                "title": "'Bench tour ' || g",
                "link": "'https://example.com/t/' || g",
                "link_normalised": "'example.com/t/' || g",
            },
        )
    print(f"corpus: {creators:,} creators, {tours:,} tours in {time.perf_counter() - started:.0f} s", flush=True)
    started = time.perf_counter()
    with engine.begin() as connection:
        connection.execute(text("DROP INDEX ix_analytics_events_bucket"))
        connection.execute(text("DROP INDEX ix_analytics_events_creator_id_bucket"))
        connection.execute(text("SET LOCAL work_mem = '256MB'"))
        connection.execute(
            text(
                """
                INSERT INTO analytics_events (kind, value, occurred_at, bucket, tour_id, ad_id, creator_id, user_id,
                    viewer_key)
                SELECT kind, 1, ts, floor(extract(epoch FROM ts) / 900)::bigint,
                    CASE WHEN kind IN ('ad_impression', 'ad_click', 'follow') THEN NULL ELSE :first_tour + tour END,
                    CASE WHEN kind IN ('ad_impression', 'ad_click') THEN 1 + ad END,
                    CASE WHEN kind IN ('ad_impression', 'ad_click') THEN :first_creator + ad % :creators
                         ELSE :first_creator + tour / :per_creator END,
                    viewer, 'u:' || viewer
                FROM (
                    SELECT now() - random() * interval '90 days' AS ts,
                        floor(:tours * power(random(), 3))::int AS tour,
                        floor(:ads * power(random(), 3))::int AS ad,
                        1 + floor(random() * 1000000)::int AS viewer,
                        CASE WHEN r < 0.70 THEN 'view' WHEN r < 0.80 THEN 'like' WHEN r < 0.87 THEN 'save'
                             WHEN r < 0.92 THEN 'share' WHEN r < 0.95 THEN 'follow'
                             WHEN r < 0.99 THEN 'ad_impression' ELSE 'ad_click' END AS kind
                    FROM (SELECT random() AS r FROM generate_series(1, :events)) AS draws
                ) AS generated
                """
            ),
            {
                "events": events,
                "tours": tours,
                "ads": creators * 5,
                "creators": creators,
                "per_creator": per_creator,
                "first_tour": first_tour,
                "first_creator": first_creator,
            },
        )
        connection.execute(text("CREATE INDEX ix_analytics_events_bucket ON analytics_events (bucket)"))
        connection.execute(
            text("CREATE INDEX ix_analytics_events_creator_id_bucket ON analytics_events (creator_id, bucket)")
        )
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("VACUUM ANALYZE"))
    print(f"corpus: {events:,} events generated and indexed in {time.perf_counter() - started:.0f} s", flush=True)


def rollup(events: int, tours: int, creators: int) -> None:
    configure("postgresql", fresh=True)
    from sqlalchemy import func, select, text

    from app.analytics.models import AdRollup, CreatorRollup, TourRollup
    from app.analytics.rollup import roll_up
    from app.core.db import get_engine, get_sessionmaker

    build_corpus(events, tours, creators)
    factory = get_sessionmaker()
    started = time.perf_counter()
    report = roll_up(factory)
    elapsed = time.perf_counter() - started
    with factory() as session:
        sizes = {
            model.__tablename__: session.scalar(select(func.count()).select_from(model))
            for model in (TourRollup, AdRollup, CreatorRollup)
        }
    print(
        f"rollup: {events:,} events in {elapsed:.1f} s ({events / elapsed:,.0f} events/s), buckets "
        f"{report.start}..{report.end}; rows: " + ", ".join(f"{name} {count:,}" for name, count in sizes.items()),
        flush=True,
    )
    # One more minute of traffic at the same rate (10M over 90 days ≈ 77 a minute; take 10,000), then
    # the periodic run: only the margin behind the watermark is recomputed.
    with get_engine().begin() as connection:
        connection.execute(
            text(
                """
                INSERT INTO analytics_events (kind, value, occurred_at, bucket, tour_id, creator_id)
                SELECT 'view', 1, now() - random() * interval '1 minute',
                    floor(extract(epoch FROM now() - random() * interval '1 minute') / 900)::bigint,
                    (SELECT min(id) FROM tours) + floor(:tours * power(random(), 3))::int,
                    (SELECT min(id) FROM creators)
                FROM generate_series(1, 10000)
                """
            ),
            {"tours": tours},
        )
    started = time.perf_counter()
    report = roll_up(factory)
    print(f"rollup: incremental run over buckets {report.start}..{report.end} in {time.perf_counter() - started:.2f} s")


# -------------------------------------------------------------------------------------------- query


def query(runs: int, days: int, zone: str) -> None:
    configure("postgresql", fresh=False)
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    from sqlalchemy import text

    from app.analytics import service
    from app.core.db import get_sessionmaker
    from app.users.models import User

    factory = get_sessionmaker()
    with factory() as session:
        ranked = session.execute(
            text(
                "SELECT creator_id, count(*) AS n FROM analytics_events WHERE creator_id IS NOT NULL"
                " GROUP BY 1 ORDER BY 2 DESC"
            )
        ).all()
    busiest, median = ranked[0], ranked[len(ranked) // 2]
    last = datetime.now(ZoneInfo(zone)).date()
    first = last - timedelta(days=days - 1)
    for label, (creator_id, count) in (("busiest", busiest), ("median", median)):
        with factory() as session:
            owner_id = session.scalar(text("SELECT user_id FROM creators WHERE id = :c"), {"c": creator_id})
            caller = session.get(User, owner_id)
            assert caller is not None
            series: list[float] = []
            table: list[float] = []
            for _ in range(runs):
                started = time.perf_counter()
                win = service.window(session, caller, date_from=first, date_to=last, time_zone=zone)
                totals = service.totals_of(service.creator_days(session, win))
                series.append(time.perf_counter() - started)
                started = time.perf_counter()
                win = service.window(session, caller, date_from=first, date_to=last, time_zone=zone)
                _rows, total = service.tour_rows(session, win, limit=50, offset=0)
                table.append(time.perf_counter() - started)
                session.rollback()
        print(
            f"query {label} creator {creator_id} ({count:,} events, {total} tours; {days} days in {zone}; "
            f"views {totals['views']:,}): totals/series p50 {_ms(series, 0.5)} p99 {_ms(series, 0.99)} ms; "
            f"per-tour table p50 {_ms(table, 0.5)} p99 {_ms(table, 0.99)} ms"
        )


def _ms(values: list[float], quantile: float) -> str:
    ordered = sorted(values)
    if quantile == 0.5:
        return f"{statistics.median(ordered) * 1000:.1f}"
    return f"{ordered[min(len(ordered) - 1, int(len(ordered) * quantile))] * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    ingest_parser = commands.add_parser("ingest")
    ingest_parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ingest_parser.add_argument("--events", type=int, default=200_000)
    ingest_parser.add_argument("--threads", type=int, default=4)
    rollup_parser = commands.add_parser("rollup")
    rollup_parser.add_argument("--events", type=int, default=10_000_000)
    rollup_parser.add_argument("--tours", type=int, default=1_000_000)
    rollup_parser.add_argument("--creators", type=int, default=10_000)
    query_parser = commands.add_parser("query")
    query_parser.add_argument("--runs", type=int, default=200)
    query_parser.add_argument("--days", type=int, default=90)
    query_parser.add_argument("--zone", default="Europe/Berlin")
    arguments = parser.parse_args()
    if arguments.command == "ingest":
        ingest(arguments.db, arguments.events, arguments.threads)
    elif arguments.command == "rollup":
        rollup(arguments.events, arguments.tours, arguments.creators)
    else:
        query(arguments.runs, arguments.days, arguments.zone)


if __name__ == "__main__":
    main()
