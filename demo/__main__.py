"""Command line: `python -m demo load [--tours N] [--creators N] [--database-url URL]` and
`python -m demo images [--creators N]`."""

from __future__ import annotations

import argparse
import time

from app.core.settings import get_settings, normalise_database_url


def _progress(message: str) -> None:
    print(f"  {message}", flush=True)


def load(tours: int, creators: int, database_url: str | None, images: bool) -> None:
    from sqlalchemy.orm import sessionmaker

    from app.classifications.seed import load_dictionaries
    from app.core.db import make_engine
    from app.core.migrate import upgrade_database
    from demo.loader import load_demo

    settings = get_settings()
    url = normalise_database_url(database_url) if database_url else settings.sqlalchemy_url
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    print("==> Migrating the database", flush=True)
    upgrade_database(url)
    engine = make_engine(url)
    try:
        with sessionmaker(bind=engine).begin() as session:
            added = load_dictionaries(session)
        _report_dictionaries(added)
        print(f"==> Demo content: {tours:,} tours, {creators:,} creators", flush=True)
        load_demo(engine, tours=tours, creators=creators, progress=_progress, images=images)
    finally:
        engine.dispose()


def _report_dictionaries(added: dict[str, int]) -> None:
    new = {kind: count for kind, count in added.items() if count}
    if new:
        _progress("dictionaries: " + ", ".join(f"{count} {kind.replace('_', ' ')}" for kind, count in new.items()))
    else:
        _progress("dictionaries: up to date")


def images(creators: int) -> None:
    from demo.corpus import CorpusConfig, People
    from demo.images import ensure_logos, ensure_preview_pool

    settings = get_settings()
    config = CorpusConfig(creators=creators)
    started = time.monotonic()
    previews = ensure_preview_pool(settings.uploads_dir, config.seed, config.previews_per_category)
    logos = ensure_logos(settings.uploads_dir, config.seed, People(config).logo_requests())
    target = settings.uploads_dir / "demo"
    print(f"  {previews:,} previews and {logos:,} logos drawn under {target} ({time.monotonic() - started:.1f} s)")


def main(argv: list[str] | None = None) -> None:
    settings = get_settings()
    parser = argparse.ArgumentParser(prog="python -m demo", description="The TourAtlas demo corpus.")
    commands = parser.add_subparsers(dest="command", required=True)
    load_cmd = commands.add_parser("load", help="migrate, load the dictionaries and the demo corpus (once)")
    load_cmd.add_argument("--tours", type=int, default=settings.demo_tours, help="number of tours (up to millions)")
    load_cmd.add_argument("--creators", type=int, default=settings.demo_creators)
    load_cmd.add_argument("--database-url", default=None, help="SQLAlchemy or postgres:// URL; default: settings")
    load_cmd.add_argument("--no-images", action="store_true", help="do not draw the preview and logo pictures")
    images_cmd = commands.add_parser("images", help="draw the demo preview pictures and creator logos")
    images_cmd.add_argument("--creators", type=int, default=settings.demo_creators)
    args = parser.parse_args(argv)
    if args.command == "load":
        load(args.tours, args.creators, args.database_url, images=not args.no_images)
    else:
        images(args.creators)


if __name__ == "__main__":
    main()
