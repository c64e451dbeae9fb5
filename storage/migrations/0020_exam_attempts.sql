-- Exam mode (bot/features/exams/): the terms of each exam attempt, fixed when it starts. The
-- paper (the questions drawn, their order and their options' order) is the attempt's own plan
-- (attempts.question_order, option_orders), so a restart or a retake never changes it.
CREATE TABLE exam_attempts (
    attempt_id INTEGER PRIMARY KEY REFERENCES attempts (attempt_id) ON DELETE CASCADE,
    minutes    INTEGER NOT NULL,
    deadline   REAL    NOT NULL,   -- epoch seconds: submitted by itself then
    marks      TEXT    NOT NULL,   -- JSON: question id -> marks for a right answer
    penalty    REAL    NOT NULL,   -- marks taken for a wrong answer
    language   TEXT                -- the learner's UI language at the start (the job's
                                   -- message at the deadline is in it); NULL: English
);
CREATE INDEX exam_attempts_by_deadline ON exam_attempts (deadline);

-- Homework set as an exam (/assign ... exam [minutes]): the exam its members sit, whatever the
-- quiz's own exam mode says.
CREATE TABLE exam_homework (
    assignment_id INTEGER PRIMARY KEY REFERENCES assignments (assignment_id) ON DELETE CASCADE,
    minutes       INTEGER NOT NULL,
    marks         REAL NOT NULL,
    penalty       REAL NOT NULL,
    draw          INTEGER            -- NULL: every question
);
