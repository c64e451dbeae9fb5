"""A YAML loader that remembers where each mapping, key and value is written in the file.

PyYAML's safe loader, with positions kept on mappings (:class:`YamlMapping`) for the problems
the schema check reports, and a budget of nodes (:data:`MAX_YAML_NODES`) against alias bombs.
"""

from __future__ import annotations

from typing import Any

import yaml

from bot.bankload.problems import show

MAX_YAML_NODES = 100_000
"""Most YAML nodes a bank file may hold, counting each alias (``*name``) as the whole subtree it
repeats: a few hundred bytes of nested aliases expand to millions of values (the "billion
laughs" attack), and every check of the schema walks the expanded tree. A full bank of 100
questions in ten languages has about 20,000."""

REREAD_MARGIN = 64 * 1024
"""Characters past libyaml's error that PyYAML's own parser reads, when it reads a document that
failed again for its messages: enough for its lookahead (a key of at most 1,024 characters), so
that it meets the same error, and a megabyte with a slip near its start is not read twice in
full by the slow parser. An error it finds only near the end of that prefix (a cut document)
sends it to the whole document."""

REREAD_LIMIT = 128 * 1024
"""Past this many characters into the document, libyaml's error is reported as it is (the same
line and column; its wording, which the hints of :mod:`bot.bankload.locate` may not know):
reading a megabyte again with PyYAML's own parser is seconds of a thread that holds the
interpreter, and every chat of the bot waits on it."""


class _OverBudget(yaml.composer.ComposerError):
    """The document expands past :data:`MAX_YAML_NODES`, or names a node inside itself: the
    same with either parser, so it is not read again."""


Pos = tuple[int, int]
"""A place in a file: (line, column), both 1-based."""


class YamlMapping(dict[str, Any]):
    """A YAML mapping that remembers where it, each key and each value start (1-based), and the
    source text of each plain (unquoted) scalar value, to show what YAML made of it."""

    line: int = 0
    column: int = 0
    key_lines: dict[str, int]
    key_pos: dict[str, Pos]
    value_pos: dict[str, Pos]
    plain_source: dict[str, str]

    @property
    def pos(self) -> Pos:
        """Where the mapping starts."""
        return (self.line, self.column)

    def at(self, key: str) -> Pos:
        """Where ``key`` is written (the mapping's start if it is missing)."""
        return self.key_pos.get(key, self.pos)

    def value_at(self, key: str) -> Pos:
        """Where the value of ``key`` starts (the mapping's start if it is missing)."""
        return self.value_pos.get(key, self.pos)


_Base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser where PyYAML was built with it (the wheels are), else PyYAML's own: the
same documents, nodes and marks, several times faster on a large bank."""


class LineLoader(_Base):  # type: ignore[misc, valid-type]
    """PyYAML's safe loader, with line numbers kept on mappings and a budget of nodes.

    The composer hands each alias back as the very node it names, so the document is a graph in
    which a few nodes can stand for millions; :meth:`get_single_node` weighs every node as the
    size of the tree it expands to and stops at :data:`MAX_YAML_NODES`, before anything walks it.
    """

    def get_single_node(self) -> yaml.Node | None:
        """Compose the document as PyYAML does, then weigh it against :data:`MAX_YAML_NODES`.

        Raises:
            yaml.composer.ComposerError: the expanded document would pass the budget, or an
                alias names a node that contains it (a recursive structure).
        """
        node: yaml.Node | None = super().get_single_node()
        if node is not None:
            _weigh(node)
        return node


class _PureLineLoader(yaml.SafeLoader):
    """:class:`LineLoader` on PyYAML's own parser: for the messages of a document that fails."""

    def get_single_node(self) -> yaml.Node | None:
        """As :meth:`LineLoader.get_single_node`."""
        node: yaml.Node | None = super().get_single_node()
        if node is not None:
            _weigh(node)
        return node


def _weigh(root: yaml.Node) -> None:
    """Check that ``root`` expands to at most :data:`MAX_YAML_NODES` nodes and has no cycle.

    Each node is weighed once (aliases are the same node object), children before parents, with
    an explicit stack: a deeply nested document cannot exhaust Python's recursion.
    """
    weights: dict[int, int] = {}  # id(node) -> size of its expanded tree
    open_nodes: set[int] = set()  # ids of the nodes whose children are being weighed
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            open_nodes.discard(key)
            weight = 1 + sum(weights[id(child)] for child in _children(node))
            weights[key] = weight
            if weight > MAX_YAML_NODES:
                raise _OverBudget(
                    None,
                    None,
                    f"the document expands to more than {MAX_YAML_NODES:,} values "
                    "(through aliases?); a bank needs far fewer",
                    node.start_mark,
                )
            continue
        if key in weights:
            continue
        if key in open_nodes:
            raise _OverBudget(
                None, None, "found an alias to a node that contains it", node.start_mark
            )
        open_nodes.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in open_nodes:
                raise _OverBudget(
                    None, None, "found an alias to a node that contains it", child.start_mark
                )
            if id(child) not in weights:
                stack.append((child, False))


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _construct_mapping(loader: LineLoader, node: yaml.MappingNode) -> YamlMapping:
    loader.flatten_mapping(node)
    mapping = YamlMapping()
    mapping.line, mapping.column = _pos(node.start_mark)
    mapping.key_lines, mapping.key_pos, mapping.value_pos, mapping.plain_source = {}, {}, {}, {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str | int | float | bool) or key is None:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                "found an unhashable or null key",
                key_node.start_mark,
            )
        key = str(key)
        if key in mapping:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                f"found duplicate key {show(key)}",
                key_node.start_mark,
            )
        mapping[key] = loader.construct_object(value_node, deep=True)
        mapping.key_pos[key] = _pos(key_node.start_mark)
        mapping.key_lines[key] = mapping.key_pos[key][0]
        mapping.value_pos[key] = _pos(value_node.start_mark)
        # a plain scalar's style is None from PyYAML's parser, '' from libyaml's
        if isinstance(value_node, yaml.ScalarNode) and not value_node.style:
            mapping.plain_source[key] = value_node.value
    return mapping


def _pos(mark: yaml.Mark) -> Pos:
    return (mark.line + 1, mark.column + 1)


LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_PureLineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml(document: str) -> Any:
    """Parse YAML text with :class:`LineLoader`: mappings are :class:`YamlMapping`.

    A document that does not parse is read again with PyYAML's own parser, whose messages the
    problem's hints (:mod:`bot.bankload.locate`) know: up to the error and
    :data:`REREAD_MARGIN` more, when the error is within :data:`REREAD_LIMIT` characters.

    Raises:
        yaml.YAMLError: the text does not parse, has a duplicate or unhashable key, expands
            to more than :data:`MAX_YAML_NODES` nodes, or nests collections deeper than
            Python's recursion limit lets PyYAML's composer go (a file of brackets).
    """
    try:
        try:
            return yaml.load(document, Loader=LineLoader)
        except _OverBudget:
            raise
        except yaml.YAMLError as exc:
            if _Base is yaml.SafeLoader:
                raise
            mark = getattr(exc, "problem_mark", None)
            if mark is not None and mark.index > REREAD_LIMIT:
                raise  # as libyaml puts it: the same place, in its own words
            if mark is not None:  # PyYAML's own parser is slow: it reads up to the error only
                prefix = document[: mark.index + REREAD_MARGIN]
                try:
                    yaml.load(prefix, Loader=_PureLineLoader)
                except yaml.YAMLError as again:
                    place = getattr(again, "problem_mark", None)
                    if len(prefix) == len(document) or (
                        place is not None and place.index < len(prefix) - REREAD_MARGIN // 2
                    ):
                        raise
        return yaml.load(document, Loader=_PureLineLoader)
    except RecursionError:
        raise yaml.YAMLError("collections nested too deeply (a bank nests a few levels)") from None
