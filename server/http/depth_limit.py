"""The depth limit, counting every field, introspection (`__schema`, `__type`) included.

The depth of an operation is the number of fields with a selection set on its longest
path down to a leaf field: `{ me { role } }` has depth 1, `{ me { workspace { id } } }`
depth 2. Fragments add nothing themselves; the fields they hold count where they are
spread. Strawberry's `QueryDepthLimiter` skips fields whose names start with `__`, so a
100-deep `__type { ofType { ofType … } }` went through; this rule does not.
"""

from __future__ import annotations

from typing import Any

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


def depth_rule(max_depth: int) -> type[ValidationRule]:
    class DepthRule(ValidationRule):
        def enter_document(self, node: DocumentNode, *_args: Any) -> Any:
            measure = _Depth(node, cap=max_depth + 1)
            for definition in node.definitions:
                if not isinstance(definition, OperationDefinitionNode):
                    continue
                name = definition.name.value if definition.name else "anonymous"
                try:
                    depth = measure.of(definition.selection_set)
                except RecursionError:  # a chain of hundreds of fragments spreading the next
                    self.report_error(GraphQLError(f"'{name}' spreads fragments too deeply"))
                    continue
                if depth > max_depth:
                    self.report_error(
                        GraphQLError(
                            f"'{name}' exceeds maximum operation depth of {max_depth}",
                            definition,
                        )
                    )
            return self.SKIP

    return DepthRule


class _Depth:
    """Depths of selection sets, capped at `cap` so the walk stops early; fragments memoised."""

    def __init__(self, document: DocumentNode, *, cap: int) -> None:
        self.cap = cap
        self.fragments = {
            d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
        }
        self.known: dict[str, int] = {}
        self.open: set[str] = set()

    def of(self, selection_set: SelectionSetNode) -> int:
        deepest = 0
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                depth = 1 + self.of(selection.selection_set) if selection.selection_set else 0
            elif isinstance(selection, InlineFragmentNode):
                depth = self.of(selection.selection_set)
            elif isinstance(selection, FragmentSpreadNode):
                depth = self._fragment(selection.name.value)
            else:  # pragma: no cover - the three kinds of selection
                depth = 0
            deepest = max(deepest, depth)
            if deepest >= self.cap:
                break
        return deepest

    def _fragment(self, name: str) -> int:
        if name in self.known:
            return self.known[name]
        fragment = self.fragments.get(name)
        if fragment is None or name in self.open:
            return 0  # unknown fragments and cycles are other rules' errors
        self.open.add(name)
        depth = self.of(fragment.selection_set)
        self.open.discard(name)
        self.known[name] = depth
        return depth
