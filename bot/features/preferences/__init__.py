"""Each user's and group's preferences: the language, and what follows a private answer (a
"Next" button or the next question at once)."""
