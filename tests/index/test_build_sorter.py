"""The rebuild sorts its keys in `threaded_sorter`: SQLite's sorter runs its worker threads only with
temporary files and only once the keys outgrow a run of the page cache's size, so inside the block
the build connection must have both, and get its own settings back after it."""

from __future__ import annotations

import random
from pathlib import Path

from indexer.embedded.build import SORTER_CACHE_KIB, SORTER_THREADS, open_build_file, threaded_sorter


def _setting(connection: object, name: str) -> int:
    return connection.execute(f"PRAGMA {name}").fetchone()[0]  # type: ignore[attr-defined, no-any-return]


def test_the_sorter_has_temporary_files_a_small_cache_and_threads_inside_and_the_build_settings_after(
    tmp_path: Path,
) -> None:
    connection = open_build_file(tmp_path / "build.db")
    before = (_setting(connection, "temp_store"), _setting(connection, "cache_size"))
    assert before[0] == 2  # MEMORY while loading: no sorter threads there
    with threaded_sorter(connection):
        assert _setting(connection, "temp_store") == 1  # FILE
        assert _setting(connection, "cache_size") == -SORTER_CACHE_KIB
        assert _setting(connection, "threads") == SORTER_THREADS
    assert (_setting(connection, "temp_store"), _setting(connection, "cache_size")) == before


def test_a_key_sorted_in_runs_on_threads_is_complete_and_in_order(tmp_path: Path) -> None:
    connection = open_build_file(tmp_path / "build.db")
    generator = random.Random(11)
    rows = [(rid, generator.randrange(50), "x" * generator.randrange(40)) for rid in range(1, 120_001)]
    connection.execute("CREATE TABLE t (rid INTEGER PRIMARY KEY, a INTEGER, b TEXT)")
    connection.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
    with threaded_sorter(connection):  # ~6 MB of keys: more than one sorted run
        connection.execute("CREATE INDEX ix_t ON t (a, b, rid)")
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    ordered = connection.execute("SELECT a, b, rid FROM t INDEXED BY ix_t WHERE a >= 0 ORDER BY a, b, rid").fetchall()
    assert ordered == sorted((a, b, rid) for rid, a, b in rows)
