"""Test support code that benchmarks share with the tests: importable without side effects
(no environment set, no fixtures, no pytest)."""
