"""sharing."""
