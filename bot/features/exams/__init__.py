"""Exam mode: a quiz played in private against one timer, marked at the end (issue 34)."""
