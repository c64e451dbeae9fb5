"""/newquiz: a quiz made by chatting with the bot, step by step, then published as a created
quiz (:mod:`bot.features.myquizzes`)."""
