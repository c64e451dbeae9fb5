"""preferences."""
