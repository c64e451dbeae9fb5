"""Homework in a group: a quiz set with a deadline, played privately by each member, with
reminders and results."""
