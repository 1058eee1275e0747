"""The app side of the search index: rows → documents (documents.py), the outbox → index sync and the
full reindex (sync.py), tour embeddings stored in the database and pushed to the index
(embeddings.py), and which adapter the settings choose (registry.py). `python -m app.search reindex`
rebuilds the index from the database.

`indexer/` is the library (port, typed queries, documents and cards, adapters) and imports nothing
from `app/`; this package is the only app code that builds an adapter.
"""
