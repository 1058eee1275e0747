"""The deterministic demo corpus: dictionaries loader, generated pictures, tours at real places."""
