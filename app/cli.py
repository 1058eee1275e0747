"""Command line: `python -m app.cli serve | setup | openapi PATH | announce-version [VERSION]`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from app.core.settings import InsecureSettingsError, get_settings
from app.task_modules import load_task_modules


def progress(message: str) -> None:
    print(f"  {message}", flush=True)


def setup_platform() -> None:
    """Migrate, load the dictionaries and (on an empty database) the demo corpus, then make sure the
    search index holds what the database holds. Safe to run on every start."""
    from app.classifications.seed import load_dictionaries
    from app.core.db import get_sessionmaker
    from app.core.migrate import upgrade_database

    settings = get_settings()
    started = time.monotonic()
    print("==> Migrating the database", flush=True)
    upgrade_database(settings.sqlalchemy_url)
    session_factory = get_sessionmaker()
    with session_factory.begin() as session:
        load_dictionaries(session)
    if settings.seed_demo:
        print("==> Demo content", flush=True)
        # The top-level `demo` package: only a demo start needs it, so a deployment may ship
        # without it (and then sets SEED_DEMO=false).
        try:
            from demo.loader import load_demo
        except ImportError as exc:
            raise SystemExit("SEED_DEMO is on, but the demo package is not installed: set SEED_DEMO=false") from exc
        load_demo(session_factory, tours=settings.demo_tours, creators=settings.demo_creators, progress=progress)
    print("==> Search index", flush=True)
    from app.search.sync import ensure_index_built

    ensure_index_built(session_factory, progress=progress)
    if settings.embeddings_enabled:
        # Tours without an embedding get one in the background; similar tours and For You improve
        # as it goes, while the site already serves.
        from app.core.tasks import get_task_runner
        from app.search.embeddings import EMBED_TOURS_TASK

        get_task_runner().submit(EMBED_TOURS_TASK)
    print(f"==> Ready in {time.monotonic() - started:.1f} s", flush=True)


def proxy_options(trusted_proxies: list[str]) -> dict[str, Any]:
    """uvicorn's reading of X-Forwarded-For / X-Forwarded-Proto: only from TRUSTED_PROXIES.

    Left to itself uvicorn believes these headers from 127.0.0.1 (FORWARDED_ALLOW_IPS), so any local
    process, or a client reaching the app through a port forward that arrives from loopback, could
    claim another address for every request and walk past the per-IP sign-in limit.
    """
    if not trusted_proxies:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": ",".join(trusted_proxies)}


def serve(host: str, port: int, *, workers: int = 1, setup: bool = True) -> None:
    import uvicorn

    settings = get_settings()
    if setup:
        setup_platform()
    print(f"\n  TourAtlas is running at http://{host}:{port}/\n", flush=True)
    # At log level warning uvicorn prints no access lines anyway, but without access_log=False it
    # still formats one per request. (uvloop and httptools are picked by default: both installed. A
    # protocol joining each answer's head and body in one write was measured in session 10 and
    # gained nothing: bench/RESULTS.md.)
    uvicorn.run(
        "app.main:create_asgi_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        access_log=False,
        **proxy_options(settings.trusted_proxies),
    )


def write_openapi(path: Path) -> None:
    from app.main import create_app

    schema = create_app().openapi()
    path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")


def announce_version(version: str | None) -> None:
    """Tell every open page which front-end version to run (with REDIS_URL, at once through every
    API process; without, pages pick it up at their next 15-minute check)."""
    from app.core.db import get_sessionmaker
    from app.core.settings import APP_VERSION
    from app.realtime.version import announce_version as announce

    announced = announce(get_sessionmaker(), version or APP_VERSION)
    reach = "open pages notified" if get_settings().redis_url else "pages see it at their next version check"
    print(f"gui_version is now {announced}; {reach}", flush=True)


def main(argv: list[str] | None = None) -> None:
    try:
        settings = get_settings()
    except InsecureSettingsError as exc:
        raise SystemExit(f"TourAtlas: {exc}") from None
    # Setting up submits tasks (embeddings, the outbox dispatch after the demo's commits).
    load_task_modules()
    parser = argparse.ArgumentParser(prog="python -m app.cli")
    commands = parser.add_subparsers(dest="command", required=True)
    serve_cmd = commands.add_parser("serve", help="set up, then serve API, Socket.IO and the front end on one port")
    serve_cmd.add_argument("--host", default=settings.host)
    serve_cmd.add_argument("--port", type=int, default=settings.port)
    serve_cmd.add_argument("--workers", type=int, default=1, help="processes (they share state through REDIS_URL)")
    serve_cmd.add_argument(
        "--no-setup", dest="setup", action="store_false", help="serve only (a separate `setup` step has run)"
    )
    commands.add_parser("setup", help="migrate, load dictionaries and demo content, build the index")
    openapi_cmd = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi_cmd.add_argument("path", type=Path)
    announce_cmd = commands.add_parser("announce-version", help="set gui_version and tell every open page")
    announce_cmd.add_argument("version", nargs="?", help="default: this build's version")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.host, args.port, workers=args.workers, setup=args.setup)
    elif args.command == "setup":
        setup_platform()
    elif args.command == "openapi":
        write_openapi(args.path)
    elif args.command == "announce-version":
        announce_version(args.version)
    else:  # pragma: no cover - argparse refuses unknown commands
        sys.exit(2)


if __name__ == "__main__":
    main()
