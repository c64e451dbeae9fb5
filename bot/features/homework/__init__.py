"""homework."""
