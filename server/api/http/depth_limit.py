"""The depth limit, counting every field, introspection (`__schema`, `__type`) included,
with `ofType` counted on its own.

The depth of an operation is the number of fields with a selection set on its longest
path down to a leaf field: `{ me { role } }` has depth 1, `{ me { workspace { id } } }`
depth 2. Fragments add nothing themselves; the fields they hold count where they are
spread. Strawberry's `QueryDepthLimiter` skips fields whose names start with `__`, so a
100-deep `__type { ofType { ofType … } }` went through; this rule does not.

`ofType` (a wrapping type's inner type: `[T!]!` is three levels) is not counted in the
depth but in the operation's `ofType` nesting, the most `ofType` fields on one path, with a
bound of its own: the standard introspection query (graphql-js `getIntrospectionQuery()`,
graphql-core `get_introspection_query()`) nests nine `ofType` inside `__schema { types {
fields { args { type {`, depth 5, which every schema-loading tool sends. An `ofType` chain
adds one object per level, so this bound keeps pathological chains out without the depth
limit's multiplying fan-out. No type of ours has a field named `ofType`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from graphql import GraphQLError
from graphql.language import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
)
from graphql.validation import ValidationRule

MAX_OF_TYPE_NESTING = 12
"""Most `ofType` fields on one path: the standard introspection queries nest nine."""


def depth_rule(max_depth: int, max_of_type: int = MAX_OF_TYPE_NESTING) -> type[ValidationRule]:
    class DepthRule(ValidationRule):
        def enter_document(self, node: DocumentNode, *_args: Any) -> Any:
            measure = _Depth(node, cap=_Reach(max_depth + 1, max_of_type + 1))
            for definition in node.definitions:
                if not isinstance(definition, OperationDefinitionNode):
                    continue
                name = definition.name.value if definition.name else "anonymous"
                try:
                    reach = measure.of(definition.selection_set)
                except RecursionError:  # a chain of hundreds of fragments spreading the next
                    self.report_error(GraphQLError(f"'{name}' spreads fragments too deeply"))
                    continue
                if reach.depth > max_depth:
                    self.report_error(
                        GraphQLError(
                            f"'{name}' exceeds maximum operation depth of {max_depth}",
                            definition,
                        )
                    )
                if reach.of_type > max_of_type:
                    self.report_error(
                        GraphQLError(
                            f"'{name}' exceeds maximum `ofType` nesting of {max_of_type}",
                            definition,
                        )
                    )
            return self.SKIP

    return DepthRule


class _Reach(NamedTuple):
    """The deepest path below a selection set, by depth and by `ofType` nesting (each the
    maximum over the paths, not necessarily of one path)."""

    depth: int
    of_type: int

    def widest(self, other: _Reach) -> _Reach:
        return _Reach(max(self.depth, other.depth), max(self.of_type, other.of_type))

    def reaches(self, cap: _Reach) -> bool:
        return self.depth >= cap.depth and self.of_type >= cap.of_type


_LEAF = _Reach(0, 0)


class _Depth:
    """Reaches of selection sets, capped at `cap` so the walk stops early; fragments memoised."""

    def __init__(self, document: DocumentNode, *, cap: _Reach) -> None:
        self.cap = cap
        self.fragments = {
            d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
        }
        self.known: dict[str, _Reach] = {}
        self.open: set[str] = set()

    def of(self, selection_set: SelectionSetNode) -> _Reach:
        deepest = _LEAF
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                reach = self._field(selection)
            elif isinstance(selection, InlineFragmentNode):
                reach = self.of(selection.selection_set)
            elif isinstance(selection, FragmentSpreadNode):
                reach = self._fragment(selection.name.value)
            else:  # pragma: no cover - the three kinds of selection
                reach = _LEAF
            deepest = deepest.widest(reach)
            if deepest.reaches(self.cap):
                break
        return deepest

    def _field(self, field: FieldNode) -> _Reach:
        if not field.selection_set:
            return _LEAF
        below = self.of(field.selection_set)
        if field.name.value == "ofType":
            return _Reach(below.depth, below.of_type + 1)
        return _Reach(below.depth + 1, below.of_type)

    def _fragment(self, name: str) -> _Reach:
        if name in self.known:
            return self.known[name]
        fragment = self.fragments.get(name)
        if fragment is None or name in self.open:
            return _LEAF  # unknown fragments and cycles are other rules' errors
        self.open.add(name)
        reach = self.of(fragment.selection_set)
        self.open.discard(name)
        self.known[name] = reach
        return reach
