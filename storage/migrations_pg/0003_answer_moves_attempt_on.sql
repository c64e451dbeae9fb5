-- An answer moves its attempt on, in the same statement: `position` is the number of answered
-- questions, and the attempt is finished with its last answer. "Next" then writes nothing.
CREATE FUNCTION answers_move_attempt_on() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE attempts
       SET position = position + 1,
           status   = CASE WHEN position + 1 >= json_array_length(question_order::json)
                           THEN 'finished' ELSE status END,
           ended_at = CASE WHEN position + 1 >= json_array_length(question_order::json)
                           THEN NEW.answered_at ELSE ended_at END
     WHERE attempt_id = NEW.attempt_id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER answers_move_attempt_on AFTER INSERT ON answers
    FOR EACH ROW EXECUTE FUNCTION answers_move_attempt_on();

-- Attempts answered under the old rule (position moved by "next") catch up.
UPDATE attempts
   SET position = (SELECT COUNT(*) FROM answers WHERE answers.attempt_id = attempts.attempt_id)
 WHERE status = 'active';
UPDATE attempts
   SET status = 'finished', ended_at = (SELECT MAX(answered_at) FROM answers
                                         WHERE answers.attempt_id = attempts.attempt_id)
 WHERE status = 'active' AND position >= json_array_length(question_order::json);
