-- Per-session counts kept by the answer's own write, so a tap needs no scan of the session's
-- answers, and the forum topic a session runs in.
ALTER TABLE group_sessions ADD COLUMN players INTEGER NOT NULL DEFAULT 0;  -- members who answered
ALTER TABLE group_sessions ADD COLUMN answered INTEGER NOT NULL DEFAULT 0; -- answers to the open question
ALTER TABLE group_sessions ADD COLUMN joined INTEGER NOT NULL DEFAULT 0;   -- of them, first answers
ALTER TABLE group_sessions ADD COLUMN message_thread_id BIGINT;            -- forum topic; NULL: none

UPDATE group_sessions
   SET players = (SELECT COUNT(*) FROM group_players p WHERE p.session_id = group_sessions.session_id);

UPDATE group_sessions
   SET answered = (SELECT COUNT(*) FROM group_answers x
                    WHERE x.session_id = group_sessions.session_id
                      AND x.question_id = question_order::json ->> position),
       joined = (SELECT COUNT(*) FROM group_answers x
                  WHERE x.session_id = group_sessions.session_id
                    AND x.question_id = question_order::json ->> position
                    AND NOT EXISTS (SELECT 1 FROM group_answers y
                                     WHERE y.session_id = x.session_id AND y.user_id = x.user_id
                                       AND y.question_id != x.question_id))
 WHERE status = 'active' AND deadline IS NOT NULL;
