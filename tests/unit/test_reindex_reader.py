"""The app's reindex hands the embedded index a reader a child process opens by URL, except for a
database only this process can open (SQLite in memory), whose child would read an empty database
and leave the index empty."""

from __future__ import annotations

import pickle

import pytest
from sqlalchemy import make_url

from app.search.sync import DatabaseTourDocuments, _in_memory


@pytest.mark.parametrize(
    ("url", "in_memory"),
    [
        ("sqlite://", True),
        ("sqlite:///:memory:", True),
        ("sqlite:///file:shared?mode=memory&cache=shared&uri=true", True),
        ("sqlite:///data/touratlas.db", False),
        ("sqlite:////tmp/x/touratlas.db", False),
        ("postgresql+psycopg://touratlas@127.0.0.1/touratlas", False),
    ],
)
def test_which_databases_a_child_process_can_read(url: str, in_memory: bool) -> None:
    assert _in_memory(make_url(url)) is in_memory


def test_only_the_url_goes_to_the_child() -> None:
    reader = DatabaseTourDocuments("sqlite:////tmp/a.db", iter([object()]))
    copy = pickle.loads(pickle.dumps(reader))
    assert copy.url == "sqlite:////tmp/a.db"
    assert list(copy) == []  # the documents of this process stay here
