"""Moderation: the approval queue of spec section 4."""
