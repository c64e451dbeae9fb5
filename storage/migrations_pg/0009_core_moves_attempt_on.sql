-- An answer still moves its attempt on, but the quiz core decides how (bot.quiz.engine.with_answer)
-- and QuizStore.record_answer writes the attempt it computed in the same transaction as the
-- answer: the trigger of migration 0003, a second copy of that rule, goes with its function.
-- Stored attempts are unchanged (the trigger only acted on new answers).
DROP TRIGGER IF EXISTS answers_move_attempt_on ON answers;
DROP FUNCTION IF EXISTS answers_move_attempt_on();
