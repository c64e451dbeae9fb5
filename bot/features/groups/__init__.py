"""Live group quiz sessions: the rules, the session runner and its jobs, the group's settings
and the results for its teachers."""
