"""importing."""
