"""newquiz."""
