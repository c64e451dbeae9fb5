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


class LineLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with line numbers kept on mappings and a budget of nodes.

    The composer hands each alias back as the very node it names, so the document is a graph in
    which a few nodes can stand for millions; :meth:`compose_node` weighs every node as the size
    of the tree it expands to and stops at :data:`MAX_YAML_NODES`, before anything walks it.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._weights: dict[int, int] = {}  # id(node) -> size of its expanded tree

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node:
        """Compose a node as PyYAML does, then weigh it against :data:`MAX_YAML_NODES`.

        Raises:
            yaml.composer.ComposerError: the expanded document would pass the budget, or an
                alias names a node that contains it (a recursive structure).
        """
        # the stubs leave peek_event unannotated (it returns the next Event), and type index an
        # int: PyYAML passes a mapping value's key node, or None, as well
        alias = self.peek_event() if self.check_event(yaml.AliasEvent) else None  # type: ignore[no-untyped-call]
        node = super().compose_node(parent, index)  # type: ignore[arg-type]
        assert node is not None  # the stubs say Node | None; PyYAML always returns a node
        if alias is not None:
            if id(node) not in self._weights:
                raise yaml.composer.ComposerError(
                    None, None, "found an alias to a node that contains it", alias.start_mark)
            weight = self._weights[id(node)]
        elif isinstance(node, yaml.SequenceNode):
            weight = 1 + sum(self._weights[id(child)] for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            weight = 1 + sum(self._weights[id(key)] + self._weights[id(value)]
                             for key, value in node.value)
        else:
            weight = 1
        self._weights[id(node)] = weight
        if weight > MAX_YAML_NODES:
            raise yaml.composer.ComposerError(
                None, None, f"the document expands to more than {MAX_YAML_NODES:,} values "
                "(through aliases?); a bank needs far fewer", node.start_mark)
        return node


def _construct_mapping(loader: LineLoader, node: yaml.MappingNode) -> YamlMapping:
    loader.flatten_mapping(node)
    mapping = YamlMapping()
    mapping.line, mapping.column = _pos(node.start_mark)
    mapping.key_lines, mapping.key_pos, mapping.value_pos, mapping.plain_source = {}, {}, {}, {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str | int | float | bool) or key is None:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark,
                "found an unhashable or null key", key_node.start_mark)
        key = str(key)
        if key in mapping:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark,
                f"found duplicate key {show(key)}", key_node.start_mark)
        mapping[key] = loader.construct_object(value_node, deep=True)
        mapping.key_pos[key] = _pos(key_node.start_mark)
        mapping.key_lines[key] = mapping.key_pos[key][0]
        mapping.value_pos[key] = _pos(value_node.start_mark)
        if isinstance(value_node, yaml.ScalarNode) and value_node.style is None:
            mapping.plain_source[key] = value_node.value
    return mapping


def _pos(mark: yaml.Mark) -> Pos:
    return (mark.line + 1, mark.column + 1)


LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)



def load_yaml(document: str) -> Any:
    """Parse YAML text with :class:`LineLoader`: mappings are :class:`YamlMapping`.

    Raises:
        yaml.YAMLError: the text does not parse, has a duplicate or unhashable key, or expands
            to more than :data:`MAX_YAML_NODES` nodes.
    """
    return yaml.load(document, Loader=LineLoader)
