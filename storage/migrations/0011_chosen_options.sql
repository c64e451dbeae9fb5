-- Question kinds: a question with several right options is answered with a set of options.
-- `chosen` holds that set as a JSON array of option indices in the bank's order, ascending
-- (`option_index` is its first); NULL for an answer of one option (then `option_index` is it).
ALTER TABLE answers ADD COLUMN chosen TEXT;
ALTER TABLE group_answers ADD COLUMN chosen TEXT;
-- A group member's ticks on the open question with several right options, before Submit: kept
-- so that a restart between a tick and Submit loses nothing; dropped at Submit and with the
-- session's answers.
CREATE TABLE group_picks (
    session_id INTEGER NOT NULL,  -- group_sessions.session_id
    position   INTEGER NOT NULL,  -- the question's position in the session
    user_id    INTEGER NOT NULL,  -- the member
    slots      INTEGER NOT NULL,  -- the ticked slots: bit s set for slot s (0 = "A")
    PRIMARY KEY (session_id, position, user_id)
) WITHOUT ROWID;
