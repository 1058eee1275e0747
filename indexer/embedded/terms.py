"""`text_terms`, every term the tour text has held: what lets a typed word be searched as its
completions instead of as an FTS5 prefix term (sql.word_completions, text.match_expression).

It must stay a superset of the FTS vocabulary of `tour_text` (title and body): a rebuild fills it
from that vocabulary, each written tour adds its own terms, and removals leave terms behind (a term
no document holds any more matches nothing, so the completions still cover exactly the documents
the prefix would). Every writer of `tour_text` goes through these two functions."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

# As `tour_text` (schema.py): the terms are the tokens FTS5 indexed, folded the same way.
_SCRATCH = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.text_scratch USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')"
)
_SCRATCH_TERMS = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.text_scratch_terms USING fts5vocab(temp, text_scratch, row)"


def fill_text_terms(connection: sqlite3.Connection) -> None:
    """Every term of the whole FTS index (a rebuild, or a file from before the table): one walk of
    the vocabulary. The caller holds the transaction."""
    connection.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.tour_text_terms USING fts5vocab(main, tour_text, row)")
    connection.execute("INSERT OR IGNORE INTO text_terms (term) SELECT term FROM temp.tour_text_terms")


def remember_text_terms(connection: sqlite3.Connection, texts: Iterable[str]) -> None:
    """The terms of texts just written to `tour_text`, tokenized by a scratch FTS5 table (the main
    vocabulary cannot be read for a few rows without reading all of it). Inside the caller's
    transaction."""
    connection.execute(_SCRATCH)
    connection.execute(_SCRATCH_TERMS)
    connection.execute("DELETE FROM temp.text_scratch")
    connection.executemany("INSERT INTO temp.text_scratch (text) VALUES (?)", ((text,) for text in texts))
    connection.execute("INSERT OR IGNORE INTO text_terms (term) SELECT term FROM temp.text_scratch_terms")
