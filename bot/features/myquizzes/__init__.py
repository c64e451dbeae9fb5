"""myquizzes."""
