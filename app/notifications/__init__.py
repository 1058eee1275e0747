"""Notifications: in-app notifications and the stored outgoing mail."""
