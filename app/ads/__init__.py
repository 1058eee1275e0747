"""Ads: sponsored cards placed by creators, and their engagement."""
