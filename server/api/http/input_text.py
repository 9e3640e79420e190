"""One check for every string an operation passes: no NUL character, no unpaired surrogate.

PostgreSQL cannot store a NUL in text or JSONB and an unpaired surrogate is not UTF-8, so
such a string failed as INTERNAL on PostgreSQL and was stored on SQLite. This validation
rule looks at every argument — literals, variables, strings deep inside `JSON` values and
their keys — before anything runs, and refuses the first bad string with VALIDATION_FAILED
naming where it is (`input.name`, `cases[3].input.question`), the same on both backends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graphql import GraphQLError
from graphql.language import (
    ArgumentNode,
    ListValueNode,
    Node,
    ObjectValueNode,
    StringValueNode,
    ValueNode,
    VariableDefinitionNode,
    VariableNode,
)
from graphql.validation import ASTValidationRule, ValidationRule

from server.errors import ValidationFailed

Path = tuple[str | int, ...]

NUL = "contains a NUL character (U+0000), which text cannot hold"
SURROGATE = "contains an unpaired surrogate, which is not valid UTF-8"


def text_rule(variables: Mapping[str, Any]) -> type[ASTValidationRule]:
    class TextRule(ValidationRule):
        def enter_argument(self, node: ArgumentNode, *_args: Any) -> Any:
            return self._check(node, problem_in_literal(node.value, (node.name.value,), variables))

        def enter_variable_definition(self, node: VariableDefinitionNode, *_args: Any) -> Any:
            if node.default_value is None:
                return self.SKIP
            path = (f"${node.variable.name.value}",)
            return self._check(node, problem_in_literal(node.default_value, path, variables))

        def _check(self, node: Node, problem: tuple[Path, str] | None) -> Any:
            if problem is None:
                return self.SKIP  # nothing below an argument needs this rule
            self.report_error(GraphQLError(problem[1], node, original_error=refusal(*problem)))
            return self.BREAK  # one refusal is enough

    return TextRule


def refusal(path: Path, reason: str) -> ValidationFailed:
    """VALIDATION_FAILED naming the field; `index` is the item of a list argument."""
    field = format_path(path)
    extensions: dict[str, Any] = {"field": field, "reason": reason}
    if len(path) > 1 and isinstance(path[1], int):
        extensions["index"] = path[1]
    return ValidationFailed(f"{field}: {reason}", **extensions)


def problem_in_literal(
    node: ValueNode, path: Path, variables: Mapping[str, Any]
) -> tuple[Path, str] | None:
    """The first bad string in a literal argument value and the variables it uses."""
    stack: list[tuple[ValueNode, Path]] = [(node, path)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, StringValueNode):
            reason = text_problem(value.value)
            if reason is not None:
                return at, reason
        elif isinstance(value, VariableNode):
            found = problem_in_value(variables.get(value.name.value))
            if found is not None:
                return at + found[0], found[1]
        elif isinstance(value, ListValueNode):
            stack.extend((item, (*at, i)) for i, item in reversed(list(enumerate(value.values))))
        elif isinstance(value, ObjectValueNode):
            stack.extend((field.value, (*at, field.name.value)) for field in value.fields[::-1])
    return None


def problem_in_value(value: Any) -> tuple[Path, str] | None:
    """The first bad string (or key) in a decoded JSON value, with its path inside it."""
    if _clean(value):
        return None
    stack: list[tuple[Any, Path]] = [(value, ())]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            reason = text_problem(item)
            if reason is not None:
                return at, reason
        elif isinstance(item, dict):
            for key in item:
                reason = text_problem(key) if isinstance(key, str) else None
                if reason is not None:
                    return at, f"has a key that {reason}"
            stack.extend((item[key], (*at, str(key))) for key in reversed(list(item)))
        elif isinstance(item, list):
            stack.extend((child, (*at, i)) for i, child in reversed(list(enumerate(item))))
    return None


def _clean(value: Any) -> bool:
    """The fast pass, without paths: most requests hold no bad string at all."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is str:
            if text_problem(item) is not None:
                return False
        elif type(item) is dict:
            for key in item:
                if type(key) is str and text_problem(key) is not None:
                    return False
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
    return True


def text_problem(text: str) -> str | None:
    """Why `text` cannot be stored, or None."""
    if "\x00" in text:
        return NUL
    if text.isascii():
        return None
    try:
        text.encode()
    except UnicodeEncodeError:
        return SURROGATE
    return None


def format_path(path: Path) -> str:
    """`("cases", 3, "input")` → `cases[3].input`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out
