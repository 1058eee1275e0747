"""`python -m app.search reindex` rebuilds the search index from the database, with progress;
`python -m app.search sync` applies the pending outbox entries."""

from __future__ import annotations

import argparse

from app.core.db import get_sessionmaker
from app.search.sync import dispatch_index_outbox, reindex
from app.task_modules import load_task_modules


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m app.search")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("reindex", help="rebuild the whole index from the database")
    commands.add_parser("sync", help="apply pending outbox entries to the index")
    args = parser.parse_args()
    load_task_modules()  # syncing tours submits the embeddings task by name
    if args.command == "reindex":
        reindex(get_sessionmaker(), progress=lambda message: print(f"  {message}", flush=True))
    else:
        print(f"applied {dispatch_index_outbox(get_sessionmaker())} outbox entries")


if __name__ == "__main__":
    main()
