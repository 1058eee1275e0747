"""Creators: public creator profiles, their featured tours and followers."""
