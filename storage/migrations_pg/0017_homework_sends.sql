-- Homework results and reports: a claim (announced_at, reported_at) is a lease until its send
-- is confirmed (announce_sent_at, report_sent_at): a send that failed, or a process that died
-- between the claim and the send, leaves it to a later pass (bot/quiz/homework.py,
-- SEND_LEASE). What earlier versions claimed counts as sent (they never sent twice).
ALTER TABLE assignments ADD COLUMN announce_sent_at DOUBLE PRECISION;
ALTER TABLE assignments ADD COLUMN report_sent_at DOUBLE PRECISION;
UPDATE assignments SET announce_sent_at = announced_at WHERE announced_at IS NOT NULL;
UPDATE assignments SET report_sent_at = reported_at WHERE reported_at IS NOT NULL;
