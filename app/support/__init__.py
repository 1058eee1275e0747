"""Support: bug reports, feature requests and support or creator-contact messages."""
