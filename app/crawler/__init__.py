"""Crawler: provider crawl configurations, sessions and the tours they found."""
