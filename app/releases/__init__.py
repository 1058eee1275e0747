"""Releases: release notes and their items."""
