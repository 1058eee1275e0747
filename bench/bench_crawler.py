"""The crawler (issue 17 part 1): crawl a local fake provider of 10,000 tour pages with the rate limit
lifted (target ≥ 200 pages/s), then crawl another with a rate limit set and show it holds.

    .venv/bin/python -m bench.bench_crawler                       # SQLite, 10,000 pages, then 20/s
    .venv/bin/python -m bench.bench_crawler --db postgresql --tours 10000 --concurrency 8
    .venv/bin/python -m bench.bench_crawler --rate 20 --rate-tours 200

The fake provider (tests/fakes/crawl_site.py: robots.txt, a sitemap index with a gzipped child, tour
pages with OpenGraph and ETags) runs in a separate process on 127.0.0.1, so its work does not share
our GIL; the crawler runs in this process exactly as a worker does (app.crawler.engine.Crawl: robots,
sitemaps, the SSRF-guarded pooled client, the parser of the add-tour lookup, one transaction per
batch writing the frontier, the filed tours and the counters). A fresh database each run (a SQLite
file under data/bench/crawler/, or the PostgreSQL database touratlas_bench_crawler).

Pages/s counts every page the session fetched (robots.txt, sitemaps and tour pages) from the claim
to the session's end, divided into the wall time. The rate run records when each request left
(client side) and reports the smallest gap and the achieved rate against the limit.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import statistics
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "bench" / "crawler"
PG_ADMIN = os.environ.get("BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_NAME = "touratlas_bench_crawler"


def configure(db: str) -> str:
    """Point the app's settings at a fresh bench database and let the guard reach 127.0.0.1 only."""
    DATA.mkdir(parents=True, exist_ok=True)
    if db == "sqlite":
        path = DATA / "bench.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        url = f"sqlite:///{path}"
    else:
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{PG_NAME}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{PG_NAME}"')
        url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + f"/{PG_NAME}"
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DATA_DIR": str(DATA),
            "SEED_DEMO": "false",
            "TASKS_EAGER": "false",
            "EMBEDDINGS_ENABLED": "false",
            "REDIS_URL": "",
            "DISCOVER_ALLOWED_NETWORKS": "127.0.0.1/32",
        }
    )
    from app.core.migrate import upgrade_database

    upgrade_database(url)
    return url


def start_site(tours: int) -> tuple[multiprocessing.Process, int]:
    from tests.fakes.crawl_site import serve_forever

    context = multiprocessing.get_context("spawn")
    ports: Any = context.Queue()
    process = context.Process(target=serve_forever, args=(tours, ports), daemon=True)
    process.start()
    return process, int(ports.get(timeout=30))


def new_session(name: str, port: int, *, rate: float, concurrency: int, tours: int) -> int:
    from app.core.db import get_sessionmaker
    from app.crawler.models import CrawlerConfiguration, CrawlerSession
    from app.crawler.schemas import CrawlSettings
    from app.vendors.models import Vendor, VendorStatus

    base = f"http://127.0.0.1:{port}"
    settings = CrawlSettings.model_validate(
        {
            "sitemap_urls": [f"{base}/sitemap_index.xml"],
            "rate_limit": rate,
            "concurrency": concurrency,
            "max_pages": max(tours + 10, 1),
            "max_depth": 0,  # the sitemaps list every tour; the pages' links add nothing
            "tour_link_pattern": rf"^http://127\.0\.0\.1:{port}/tours/",
        }
    )
    with get_sessionmaker()() as db:
        vendor = Vendor(name=name, slug=name.lower(), status=VendorStatus.approved)
        db.add(vendor)
        db.flush()
        configuration = CrawlerConfiguration(
            name=name, vendor_id=vendor.id, start_urls=[], settings=settings.model_dump(mode="json")
        )
        db.add(configuration)
        db.flush()
        session = CrawlerSession(configuration_id=configuration.id)
        db.add(session)
        db.commit()
        return session.id


def crawl(session_id: int, sent: list[float] | None = None) -> dict[str, Any]:
    from app.core.db import get_sessionmaker
    from app.crawler import fetcher
    from app.crawler.engine import Crawl
    from app.crawler.models import CrawlerSession

    def client_factory(pool: int) -> fetcher.GuardedClient:
        client = fetcher.guarded_client(pool)
        if sent is not None:
            original = client.get

            def timed(url: str, **options: Any) -> fetcher.Answer:
                sent.append(time.monotonic())
                return original(url, **options)

            client.get = timed  # type: ignore[method-assign]
        return client

    started_cpu = time.process_time()
    started = time.perf_counter()
    report = Crawl(get_sessionmaker(), session_id, client_factory=client_factory).run()
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - started_cpu
    with get_sessionmaker()() as db:
        session = db.get(CrawlerSession, session_id)
        assert session is not None
        figures = {
            "status": report.status,
            "pages": session.pages_fetched,
            "failed": session.pages_failed,
            "new_tours": session.new_tours,
            "total_tours": session.total_tours,
            "seconds": round(elapsed, 2),
            "pages_per_s": round(session.pages_fetched / elapsed, 1),
            "cpu_seconds": round(cpu, 2),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--tours", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rate", type=float, default=20.0, help="requests/s of the rate-limited run")
    parser.add_argument("--rate-tours", type=int, default=200)
    options = parser.parse_args()

    configure(options.db)
    print(f"load average before: {os.getloadavg()}")
    site, port = start_site(options.tours)
    try:
        session_id = new_session("Bench", port, rate=0, concurrency=options.concurrency, tours=options.tours)
        lifted = crawl(session_id)
        print(f"rate lifted, {options.tours} tours, concurrency {options.concurrency}: {lifted}")
    finally:
        site.terminate()
    print(f"load average: {os.getloadavg()}")

    site, port = start_site(options.rate_tours)
    try:
        session_id = new_session("Limited", port, rate=options.rate, concurrency=4, tours=options.rate_tours)
        sent: list[float] = []
        limited = crawl(session_id, sent)
    finally:
        site.terminate()
    sent.sort()
    gaps = [later - earlier for earlier, later in itertools.pairwise(sent)]
    achieved = (len(sent) - 1) / (sent[-1] - sent[0])
    print(
        f"rate limit {options.rate}/s, {options.rate_tours} tours, concurrency 4: {limited}; "
        f"{len(sent)} requests, achieved {achieved:.2f}/s, smallest gap {min(gaps) * 1000:.1f} ms "
        f"(limit {1000 / options.rate:.1f} ms), median gap {statistics.median(gaps) * 1000:.1f} ms"
    )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
