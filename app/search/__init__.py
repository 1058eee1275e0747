"""The index side of the application: turning rows into index documents, applying the outbox to
the index, rebuilding it, computing tour embeddings. `indexer/` is the library it drives."""
