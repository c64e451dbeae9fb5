"""The question of the day in a group or channel: its schedule, each day's post and reveal,
the weekly leaderboard."""
