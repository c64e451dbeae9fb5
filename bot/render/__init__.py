"""What every feature's screens share: a message as plain data, markup, the callback-data codec.

Screens are built once for both front ends: :class:`~bot.render.text.Html` markup for Telegram
(``parse_mode`` HTML, with ``<``, ``>`` and ``&`` escaped as the Bot API requires) and
:class:`~bot.render.text.Plain` for the terminal. A :class:`~bot.render.screen.Screen` holds
the text and the keyboard as plain data; ``bot.telegram`` turns it into an
``InlineKeyboardMarkup``. Each feature's own screens are in its room
(``bot/features/<feature>/screens.py``).

No message may exceed Telegram's limits: screens that grow with the bank or the user's history
(preview, stats, the final score, the review) are lists of screens split by
:func:`~bot.render.text.split_html` at 4,096 UTF-16 units after entity parsing; toasts stay
within 200 units (:func:`~bot.render.text.clip_utf16`).

The package, top to bottom (a module imports only from the lines below it; an import-linter
contract in pyproject.toml keeps it so):

- :mod:`~bot.render.question`: a question's layout, shared by every kind of quiz.
- :mod:`~bot.render.screen`: :class:`~bot.render.screen.Screen` and its buttons.
- :mod:`~bot.render.callbacks`: the button dataclasses, one per kind, and their codec.
  :mod:`~bot.render.links`: deep links and their payloads. :mod:`~bot.render.text`: HTML and
  plain markup, UTF-16 lengths, clipping, splitting.
- :mod:`~bot.render.codec`: how a kind's declaration becomes callback data and back.
- :mod:`~bot.render.limits`: Telegram's size limits (UTF-16 units, bytes, characters).
"""
