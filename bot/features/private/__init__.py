"""private."""
