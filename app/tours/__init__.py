"""Tours (media): virtual tours, their tags and embeddings, daily featured submissions."""
