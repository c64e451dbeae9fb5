"""Sharing a quiz in inline mode ("@<bot> text" in any chat)."""
