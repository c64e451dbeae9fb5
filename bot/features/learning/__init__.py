"""Spaced review, reminders and /stats with its chart."""
