"""Users' data: ``/deletemydata`` and ``quizbot delete-user``."""
