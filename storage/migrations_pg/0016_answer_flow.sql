-- How a private quiz goes on after an answer (bot/quiz/flow.py), each user's /settings choice:
-- 'next' (a "Next" button), 'one_tap' (the next question at once); NULL: the default.
ALTER TABLE users ADD COLUMN answer_flow TEXT CHECK (answer_flow IN ('next', 'one_tap'));
