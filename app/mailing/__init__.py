"""Mailing list: members synchronised with the mailing-list provider."""
