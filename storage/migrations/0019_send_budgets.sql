-- PostgreSQL's send_budgets and group_sends (several instances sharing one send budget) have
-- nothing to hold on SQLite: a SQLite database has one instance, whose budget is kept in
-- process (bot/telegram/limits.py, SendBudget). The number keeps the two schemas in step.
SELECT 1;
