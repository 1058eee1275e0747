"""Several processes on one embedded index folder (`serve --workers 2`, a worker beside the API): a
full rebuild in one of them swaps the file, and every other process must then read the new file and
write into it (a write into the old file would be lost with it), and no write may land while the
rebuild runs. Two adapters on one folder stand for two processes (each takes its own flock); one
test uses a real second process.

Also: counter updates (views, likes, saves all day long) keep the cached totals and text matches,
which they cannot change, while every other write drops them."""

from __future__ import annotations

import multiprocessing
import threading
from dataclasses import replace
from pathlib import Path

from indexer.embedded.adapter import EmbeddedIndex
from indexer.embedded.schema import generation, listing_generation
from indexer.queries import BBox, FeedQuery, MapQuery, Sort, TourFilter
from tests.index.test_contract import make_tours

NEWEST = FeedQuery(sort=Sort.NEWEST)


def rebuild_with(index: EmbeddedIndex, count: int) -> None:
    index.rebuild(tours=iter(make_tours(count)), creators=[], ads=[], tags=[], places=[])


def test_a_rebuild_in_one_process_is_read_and_written_by_the_other(tmp_path: Path) -> None:
    first, second = EmbeddedIndex(tmp_path), EmbeddedIndex(tmp_path)
    first.upsert_tours(make_tours(12))
    assert second.feed(NEWEST).total == 12

    rebuild_with(first, 5)

    assert second.feed(NEWEST).total == 5  # not the old file, still open in this process
    late = replace(make_tours(1)[0], id=900, guid="late")
    second.upsert_tours([late])
    assert first.feed(NEWEST).total == 6  # the write went into the file both now read
    assert 900 in first.feed(NEWEST).ids


def test_cached_totals_of_the_old_file_are_not_served_after_a_swap(tmp_path: Path) -> None:
    first, second = EmbeddedIndex(tmp_path), EmbeddedIndex(tmp_path)
    first.upsert_tours(make_tours(30))
    by_word = FeedQuery(filter=TourFilter(text="museum"), sort=Sort.NEWEST)
    before = second.feed(by_word).total
    assert before > 0
    rebuild_with(first, 10)  # the new file's generations start again: the same numbers as before
    assert second.feed(by_word).total == first.feed(by_word).total < before


def test_a_write_waits_for_a_rebuild_in_another_process(tmp_path: Path) -> None:
    first, second = EmbeddedIndex(tmp_path), EmbeddedIndex(tmp_path)
    first.upsert_tours(make_tours(3))
    written = threading.Event()

    def write() -> None:
        second.upsert_tours([replace(make_tours(1)[0], id=901, guid="waiting")])
        written.set()

    with first._write_lock:  # what a rebuild holds from its first read to the swap
        writer = threading.Thread(target=write)
        writer.start()
        assert not written.wait(0.5)
    assert written.wait(10)
    writer.join()
    assert 901 in first.feed(NEWEST).ids


def _rebuild_in_child(directory: str, count: int) -> None:
    rebuild_with(EmbeddedIndex(Path(directory)), count)


def test_a_rebuild_in_a_real_second_process(tmp_path: Path) -> None:
    index = EmbeddedIndex(tmp_path)
    index.upsert_tours(make_tours(20))
    assert index.feed(NEWEST).total == 20
    child = multiprocessing.get_context("spawn").Process(target=_rebuild_in_child, args=(str(tmp_path), 7))
    child.start()
    child.join(120)
    assert child.exitcode == 0
    assert index.feed(NEWEST).total == 7
    index.upsert_tours([replace(make_tours(1)[0], id=902, guid="after")])
    assert EmbeddedIndex(tmp_path).feed(NEWEST).total == 8


def test_counter_updates_keep_the_cached_totals_and_other_writes_drop_them(tmp_path: Path) -> None:
    index = EmbeddedIndex(tmp_path)
    tours = make_tours(40)
    index.upsert_tours(tours)
    connection = index._connection()
    by_word = FeedQuery(filter=TourFilter(text="museum"), sort=Sort.VIEWS)
    first_page = index.feed(by_word)
    cached = dict(index._counts._matches)
    listing, row_generation = listing_generation(connection), generation(connection)

    index.update_counters({first_page.ids[-1]: {"views": 10**9}})

    assert listing_generation(connection) == listing
    assert generation(connection) == row_generation + 1  # rows still get a new version (map points)
    again = index.feed(by_word)
    assert index._counts._matches == cached  # no new pass over the posting lists
    assert again.total == first_page.total
    assert again.ids[0] == first_page.ids[-1]  # the new views do sort the page
    area = index.map_area(MapQuery(filter=TourFilter(), bbox=BBox(-180, -85, 180, 85), zoom=18, max_points=500))
    assert any(point.get("views") == 10**9 for point in area.points)  # points decoded again

    index.upsert_tours([replace(tours[0], id=903, guid="new", title="Museum of new things")])

    assert listing_generation(connection) == listing + 1
    assert index.feed(by_word).total == first_page.total + 1
