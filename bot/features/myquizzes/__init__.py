"""/myquizzes: a creator's created quizzes, to play, share, edit, export, see the results of
and delete."""
