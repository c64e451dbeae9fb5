"""Write a bank as its YAML document (``banks/README.md``): what a created quiz's versions are
stored as and what /myquizzes exports. The document parses back to the same bank
(:func:`bot.bankload.parse_bank`)."""

from __future__ import annotations

from collections.abc import Mapping

import yaml

from bot.kernel.bank import Bank
from bot.kernel.bankdata import bank_data


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, with multi-line texts as literal blocks (``|``), which a creator
    edits more easily than one quoted line full of ``\\n``."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # a literal block cannot keep trailing spaces before a line break, nor a tab: quote those
    if (
        "\n" in value
        and not any(line != line.rstrip() for line in value.split("\n"))
        and "\t" not in value
    ):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_str(value)


_Dumper.add_representer(str, _text)


def dump_bank(bank: Bank | Mapping[str, object]) -> str:
    """The YAML document of ``bank``: a :class:`Bank`, or the mapping of the bank format (bank
    data, e.g. from :func:`bot.kernel.bankdata.bank_data` or an importer), keys in its order.

    Texts are written as YAML must have them to read back as the same text (``no``, ``1:30``
    and ``on`` quoted, line breaks kept); Unicode is written as is (UTF-8), not escaped.
    """
    data = bank_data(bank) if isinstance(bank, Bank) else dict(bank)
    return yaml.dump(
        data,
        Dumper=_Dumper,
        allow_unicode=True,
        sort_keys=False,
        width=100,
        default_flow_style=False,
    )
