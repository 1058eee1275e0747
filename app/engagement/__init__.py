"""Engagement: likes, saves, shares and counted views of tours and creators."""
