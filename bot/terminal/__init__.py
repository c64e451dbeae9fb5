"""The terminal front end: ``quizbot play`` over the same kernel, features and storage."""
