"""How a user-interface message is declared: :func:`N_` (one text) and :func:`NP_` (a
plural), read by ``pybabel extract`` (keywords ``N_:1c,2`` and ``NP_:1c,2,3``).
"""

from __future__ import annotations

from typing import NamedTuple


class Text(NamedTuple):
    """A message with one text.

    Attributes:
        key: The message's key (its gettext context).
        text: The English text (its gettext message id).
    """

    key: str
    text: str


class Plural(NamedTuple):
    """A message whose text depends on a number: its ``count`` parameter, or the one that
    :attr:`number` names.

    Attributes:
        key: The message's key (its gettext context).
        singular: The English text for a count of 1.
        plural: The English text for any other count.
        number: The parameter (an int) whose value picks the form: ``count`` unless the
            message shows its number under another name (``{size} characters``).
    """

    key: str
    singular: str
    plural: str
    number: str = "count"


def N_(key: str, text: str) -> Text:
    """Declare a message ``key`` with the English ``text`` (extracted as ``N_:1c,2``)."""
    return Text(key, text)


def NP_(key: str, singular: str, plural: str, number: str = "count") -> Plural:
    """Declare a plural message ``key`` with its English forms (extracted as ``NP_:1c,2,3``),
    its form picked by the parameter ``number`` (``count`` unless told)."""
    return Plural(key, singular, plural, number)
