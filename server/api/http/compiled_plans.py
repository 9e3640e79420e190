"""A query's selection compiled from the schema into generated Python: one function per
selection set, written once per persisted document.

graphql-core executes a document by walking it on every request: for each field it looks
the field up, builds a path-bound `GraphQLResolveInfo`, calls the resolver through
Strawberry's wrapper, checks for awaitables twice and walks `complete_value`, and each object
of a list walks five more methods; calling a closure per field and per completion (this
module's first form) still cost 2–2.8× an answer written by hand. Here each object's
selection set becomes the source of one function (`compile` of generated text, names from
the schema and the document only) that reads each field straight off its source and
returns the dict display of the selected keys:

- a field Strawberry resolves with `getattr` (no resolver) is `v.<python name>`;
- a sync resolver of `self` alone (no arguments, field extensions or exception handlers)
  is called as Strawberry's wrapper would call it, `resolver(v)`; one taking `Info`,
  `strawberry.Parent` or the root through a closure that builds them; any other field
  through the schema's own resolver (`field_def.resolve`), its arguments coerced by
  graphql-core and its `Info` built by the executor;
- a leaf whose value is of its type's exact class (a `str` for String and ID, an `int` in
  range, a finite `float`, a `bool`) is itself; an enum member is looked up in its type's
  names; anything else goes to `compiled_values.leaf` (null, the type's coercion, an
  awaitable);
- a list of objects is a comprehension calling the item's function; any other list goes
  to `compiled_values.list_of`; an object is its function's call.

What a resolver returns that must be awaited becomes a `Later` whose slot the request fills
once awaited (`compiled_values.finish`). Anything the plan would not answer exactly as
graphql-core does — an exception, None for a non-null field, a value its type refuses, an
object `is_type_of` denies — raises, and the caller leaves the whole operation to the
schema, which calls the same resolvers again (queries only read) and answers errors as ever.
What cannot be planned (an abstract type, a directive, introspection, fragment variables)
is not compiled at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLEnumType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    InlineFragmentNode,
    SelectionSetNode,
    is_leaf_type,
)
from graphql.pyutils import Path, Undefined
from strawberry.types.field import StrawberryField

from server.api.http.compiled_resolvers import (
    DEFINITION,
    FieldCalls,
    read_by_getattr,
    through_schema,
)
from server.api.http.compiled_values import (
    EXACT,
    PLAIN,
    Complete,
    Later,
    awaitable,
    give_up,
    leaf,
    list_of,
    object_or_later,
    pending,
)

_CHECKS: Final[dict[type, str]] = {
    str: "{x}.__class__ is not str",
    bool: "{x}.__class__ is not bool",
    int: "({x}.__class__ is not int or not -2147483648 <= {x} <= 2147483647)",
    float: "({x}.__class__ is not float or {x} - {x} != 0.0)",  # inf and nan: not 0.0
}
"""When a built-in scalar's value is not its own serialization (then `leaf` completes it)."""

_INLINE_CHECKS: Final[dict[type, str]] = {
    str: "{x}.__class__ is str",
    bool: "{x}.__class__ is bool",
    int: "{x}.__class__ is int and -2147483648 <= {y} <= 2147483647",
    float: "{x}.__class__ is float and {y} - {y} == 0.0",
}
"""When a built-in scalar's value is its own serialization (`_CHECKS` the other way): `{x}`
the value's first use (which may name it), `{y}` the later ones."""

_HELPERS: Final[dict[str, Any]] = {
    "_Path": Path,
    "_Later": Later,
    "_Undefined": Undefined,
    "_pending": pending,
    "_give_up": give_up,
    "_awaitable": awaitable,
    "_plain": PLAIN,
}


class NotPlannable(Exception):
    """The document holds something a plan does not cover."""


class _Code:
    """The generated functions of one document: their shared namespace, each compiled as
    soon as written (so a list's completion can hold its item's function)."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = dict(_HELPERS)

    def constant(self, prefix: str, value: Any) -> str:
        """A name in the generated code for `value` (a function, a dict, a type)."""
        name = f"{prefix}{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def function(self, name: str, lines: list[str]) -> Complete:
        # Generated from the schema's Python names and the document's response keys
        # (written as string literals), nothing of any request.
        exec(compile("\n".join(lines) + "\n", f"<plan {name}>", "exec"), self.namespace)
        made: Complete = self.namespace[name]
        return made


class Planner:
    """Builds the plans of one document against one schema."""

    def __init__(
        self,
        strawberry_schema: Any,
        fragments: dict[str, FragmentDefinitionNode],
    ) -> None:
        self.strawberry_schema = strawberry_schema
        self.schema = strawberry_schema._schema
        self.fragments = fragments
        self._calls = FieldCalls(strawberry_schema)
        self._code = _Code()
        self._locals = 0

    def root(self, type_: GraphQLObjectType, selection_set: SelectionSetNode) -> Complete:
        """The operation's root selection, completed from the root value (None)."""
        return self._object(type_, [selection_set], non_null=True, root=True)[0]

    def _object(
        self,
        type_: GraphQLObjectType,
        selections: Sequence[SelectionSetNode],
        *,
        non_null: bool,
        root: bool = False,
    ) -> tuple[Complete, bool]:
        """The generated function completing an object of `type_` with the selection sets
        that select it, and whether it needs its path (a resolver below takes `Info`)."""
        grouped: dict[str, list[FieldNode]] = {}
        for selection_set in selections:
            self._collect(type_, selection_set, grouped)
        name = self._code.constant("_o", None)
        body: list[str] = []
        entries: list[str] = []
        pathed = False
        for n, (key, nodes) in enumerate(grouped.items()):
            if nodes[0].name.value == "__typename":
                entries.append(f"{key!r}: {type_.name!r}")
                continue
            lines, field_pathed = self._field(type_, key, nodes, f"x{n}")
            body.extend(lines)
            entries.append(f"{key!r}: x{n}")
            pathed |= field_pathed
        head = [f"def {name}(v, p, ex, w):"]
        if not root:
            head += ["    if v is None:", f"        return {'_give_up()' if non_null else 'None'}"]
        if type_.is_type_of is not None:
            is_type_of = self._code.constant("_is", type_.is_type_of)
            head.append(f"    if not {is_type_of}(v, None): return _give_up()")  # info unread
        tail = [
            f"    r = {{{', '.join(entries)}}}",
            "    if pend is not None:",
            "        for q in pend: q.into = r",
            "    return r",
        ]
        return self._code.function(name, [*head, "    pend = None", *body, *tail]), pathed

    def _collect(
        self,
        type_: GraphQLObjectType,
        selections: SelectionSetNode,
        grouped: dict[str, list[FieldNode]],
    ) -> None:
        for selection in selections.selections:
            if selection.directives:
                raise NotPlannable("a directive")
            if isinstance(selection, FieldNode):
                key = selection.alias.value if selection.alias else selection.name.value
                grouped.setdefault(key, []).append(selection)
            elif isinstance(selection, FragmentSpreadNode):
                fragment = self.fragments[selection.name.value]
                if fragment.variable_definitions:
                    raise NotPlannable("fragment variables")
                self._on(type_, fragment.type_condition.name.value)
                self._collect(type_, fragment.selection_set, grouped)
            elif isinstance(selection, InlineFragmentNode):
                if selection.type_condition is not None:
                    self._on(type_, selection.type_condition.name.value)
                self._collect(type_, selection.selection_set, grouped)
            else:
                raise NotPlannable("a selection of another kind")

    @staticmethod
    def _on(type_: GraphQLObjectType, condition: str) -> None:
        if condition != type_.name:
            raise NotPlannable("a fragment on another type")

    def _field(
        self, parent: GraphQLObjectType, key: str, nodes: list[FieldNode], x: str
    ) -> tuple[list[str], bool]:
        """The lines setting `x` to the field's completed value from the source `v`, and
        whether they need the object's path."""
        code = self._code
        name = nodes[0].name.value
        field_def = parent.fields.get(name)
        if field_def is None:
            raise NotPlannable("introspection")
        here = f"_Path(p, {key!r}, {parent.name!r})"
        field = field_def.extensions.get(DEFINITION)
        plain = type(field) is StrawberryField and not field_def.args
        resolved = True  # by a resolver, which may return an awaitable
        with_info = False
        call = self._calls.direct_call(parent, field_def, field, nodes) if plain else None
        if plain and getattr(field_def.resolve, "_is_default", False) and field.is_basic_field:
            attribute, read = field.python_name, field.default_resolver
            if read is getattr and attribute.isidentifier():
                got = f"v.{attribute}"
            else:
                got = f"{code.constant('_r', read)}(v, {attribute!r})"
            resolved = False
        elif call is not None and isinstance(call[1], tuple):
            function, names = call  # called with the source as `self` and each name
            if not all(name.isidentifier() for name in names):
                raise NotPlannable("a parameter name that is not an identifier")
            given = "".join(f", {name}=v" for name in names)
            got = f"{code.constant('_f', function)}(v{given})"
        elif call is not None:
            run, with_info = call
            got = f"{code.constant('_c', run)}(v, {here if with_info else 'None'}, ex)"
        else:
            through = through_schema(parent, field_def, nodes)
            if through is None:
                raise NotPlannable("a field without a resolver")
            got = f"{code.constant('_g', through)}(v, {here}, ex)"
            with_info = True
        lines, below = self._complete(field_def.type, nodes, x, key, resolved)
        if not below:
            return [f"    {x} = {got}", *lines], with_info
        got = got.replace(here, f"p{x}")
        return [f"    p{x} = {here}", f"    {x} = {got}", *lines], True

    def _complete(
        self, type_: GraphQLOutputType, nodes: Sequence[FieldNode], x: str, key: str, resolved: bool
    ) -> tuple[list[str], bool]:
        """The lines completing the resolved value in `x` in place (its path in `p<x>`
        when the second value says it is needed)."""
        code = self._code
        non_null = isinstance(type_, GraphQLNonNull)
        inner = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
        path = f"p{x}"

        def slow(complete: Any, at: str, indent: str = "        ") -> list[str]:
            """`x` completed by `complete` (a constant's value), kept if still to come."""
            name = code.constant("_k", complete)
            return [
                f"{indent}{x} = {name}({x}, {at}, ex, w)",
                f"{indent}if {x}.__class__ is _Later: pend = _pending(pend, {x}, {key!r})",
            ]

        if isinstance(inner, GraphQLList):
            item, pathed = self.value(inner.of_type, nodes)
            whole = slow(list_of(item, non_null, pathed), path if pathed else "None")
            item_type = inner.of_type
            item_inner = item_type.of_type if isinstance(item_type, GraphQLNonNull) else item_type
            if not isinstance(item_inner, GraphQLObjectType):
                return [line[4:] for line in whole], pathed
            selections = [n.selection_set for n in nodes if n.selection_set]
            item_non_null = isinstance(item_type, GraphQLNonNull)
            shown = None if pathed else self._inline(item_inner, selections, item_non_null)
            if shown is not None:
                items = f"[{shown[1]} for {shown[0]} in {x}]"
            else:
                made = self._object(item_inner, selections, non_null=item_non_null)[0]
                each = code.constant("_i", made)
                items = (
                    f"[{each}(i, _Path({path}, n, None), ex, w) for n, i in enumerate({x})]"
                    if pathed
                    else f"[{each}(i, None, ex, w) for i in {x}]"
                )
            return [
                f"    if {x}.__class__ is list or {x}.__class__ is tuple:",
                f"        {x} = {items}",
                "    else:",
                *whole,
            ], pathed
        if is_leaf_type(inner):
            memo = _names(inner) if isinstance(inner, GraphQLEnumType) else None
            complete = leaf(inner, non_null, memo)
            exact = EXACT.get(inner)
            if memo is not None:
                names = code.constant("_e", memo)
                lines = [
                    f"    y = {names}.get({x})",
                    "    if y is not None:",
                    f"        {x} = y",
                    "    else:",
                    *slow(complete, "None"),
                ]
                if not non_null:
                    lines = [f"    if {x} is not None:", *("    " + line for line in lines)]
                return lines, False
            if exact is not None:
                check = _CHECKS[exact].format(x=x)
                if not non_null:
                    check = f"{check} and {x} is not None"
                return [f"    if {check}:", *slow(complete, "None")], False
            serialize = code.constant("_s", inner.coerce_output_value)
            lines = [
                f"    if {x}.__class__ in _plain:",
                f"        {x} = {serialize}({x})",
                f"        if {x} is None or {x} is _Undefined: {x} = _give_up()",
                "    else:",
                *slow(complete, "None"),
            ]
            if not non_null:
                return [f"    if {x} is not None:", *("    " + line for line in lines)], False
            return lines, False
        if not isinstance(inner, GraphQLObjectType):
            raise NotPlannable("an abstract type")
        run, pathed = self._object(
            inner, [n.selection_set for n in nodes if n.selection_set], non_null=non_null
        )
        call = code.constant("_o", run)
        at = path if pathed else "None"
        if not resolved:
            return [f"    {x} = {call}({x}, {at}, ex, w)"], pathed
        return [
            f"    if {x}.__class__ not in _plain and {x} is not None and _awaitable({x}):",
            *slow(object_or_later(run), at),
            "    else:",
            f"        {x} = {call}({x}, {at}, ex, w)",
        ], pathed

    def _inline(
        self, type_: GraphQLObjectType, selections: Sequence[SelectionSetNode], non_null: bool
    ) -> tuple[str, str] | None:
        """(the item's name, the expression of its dict display) for an object completed
        inside its list's comprehension, not by a call each (a case page holds 450 trials):
        when each selected field is read off it with `getattr` and is a leaf, such an
        object or a list of them; else None. Nothing there can be kept to await: a value
        that must be is the schema's to answer (`compiled_values.later`)."""
        if type_.is_type_of is not None:
            return None
        grouped: dict[str, list[FieldNode]] = {}
        for selection_set in selections:
            self._collect(type_, selection_set, grouped)
        item = self._local("i")
        entries: list[str] = []
        for key, nodes in grouped.items():
            name = nodes[0].name.value
            if name == "__typename":
                entries.append(f"{key!r}: {type_.name!r}")
                continue
            field_def = type_.fields.get(name)
            if field_def is None:
                raise NotPlannable("introspection")
            field = field_def.extensions.get(DEFINITION)
            if not (read_by_getattr(field_def, field) and field.python_name.isidentifier()):
                return None
            shown = self._inline_value(field_def.type, nodes, f"{item}.{field.python_name}")
            if shown is None:
                return None
            entries.append(f"{key!r}: {shown}")
        display = f"{{{', '.join(entries)}}}"
        if not non_null:  # a null item's attributes are not read (a non-null one's raise)
            display = f"(None if {item} is None else {display})"
        return item, display

    def _inline_value(
        self, type_: GraphQLOutputType, nodes: Sequence[FieldNode], got: str
    ) -> str | None:
        """The expression of the completed value that `got` reads (None: not inline)."""
        code = self._code
        non_null = isinstance(type_, GraphQLNonNull)
        inner = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
        t = self._local("t")
        if isinstance(inner, GraphQLList):
            item_type = inner.of_type
            item_inner = item_type.of_type if isinstance(item_type, GraphQLNonNull) else item_type
            if not isinstance(item_inner, GraphQLObjectType):
                return None
            selections = [n.selection_set for n in nodes if n.selection_set]
            shown = self._inline(item_inner, selections, isinstance(item_type, GraphQLNonNull))
            if shown is None:
                return None
            item, pathed = self.value(item_type, nodes)
            whole = code.constant("_k", list_of(item, non_null, pathed))
            return (
                f"([{shown[1]} for {shown[0]} in {t}] if ({t} := {got}).__class__ is list "
                f"or {t}.__class__ is tuple else {whole}({t}, None, ex, None))"
            )
        if isinstance(inner, GraphQLObjectType):
            selections = [n.selection_set for n in nodes if n.selection_set]
            shown = self._inline(inner, selections, True)
            if shown is None:
                return None
            absent = "_give_up()" if non_null else "None"
            return f"({shown[1]} if ({shown[0]} := {got}) is not None else {absent})"
        if not is_leaf_type(inner):
            return None
        memo = _names(inner) if isinstance(inner, GraphQLEnumType) else None
        complete = code.constant("_k", leaf(inner, non_null, memo))
        slow = f"{complete}({t}, None, ex, None)"
        if memo is not None:
            names = code.constant("_e", memo)
            if non_null:
                return f"({names}.get({t} := {got}) or {slow})"
            return f"(None if ({t} := {got}) is None else ({names}.get({t}) or {slow}))"
        exact = EXACT.get(inner)
        if exact is None:
            return f"{complete}({got}, None, ex, None)"
        check = _INLINE_CHECKS[exact].format(x=f"({t} := {got})", y=t)
        if not non_null:
            check = f"({t} := {got}) is None or {_INLINE_CHECKS[exact].format(x=t, y=t)}"
        return f"({t} if {check} else {slow})"

    def _local(self, prefix: str) -> str:
        """A fresh name for a value in a generated expression."""
        self._locals += 1
        return f"{prefix}{self._locals}"

    def value(self, type_: GraphQLOutputType, nodes: Sequence[FieldNode]) -> tuple[Complete, bool]:
        """The completion of a resolved value of `type_` (a list's item), and whether it
        needs a path."""
        non_null = isinstance(type_, GraphQLNonNull)
        inner = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
        if isinstance(inner, GraphQLList):
            item, pathed = self.value(inner.of_type, nodes)
            return list_of(item, non_null, pathed), pathed
        if is_leaf_type(inner):
            memo = _names(inner) if isinstance(inner, GraphQLEnumType) else None
            return leaf(inner, non_null, memo), False
        if not isinstance(inner, GraphQLObjectType):
            raise NotPlannable("an abstract type")
        run, pathed = self._object(
            inner, [n.selection_set for n in nodes if n.selection_set], non_null=non_null
        )
        return object_or_later(run), pathed


def _names(enum: GraphQLEnumType) -> dict[Any, Any]:
    """An enum type's names by the Python values it serializes (Strawberry's enum members,
    and the values graphql-core looks up), each as its type's own coercion gives it."""
    names: dict[Any, Any] = {}
    wrapped = getattr(enum, "wrapped_cls", None)
    candidates = [*(wrapped or ()), *(value.value for value in enum.values.values())]
    for candidate in candidates:
        try:
            names[candidate] = enum.coerce_output_value(candidate)
        except Exception:  # not one it serializes: left to the coercion on a request
            continue
    return {value: name for value, name in names.items() if isinstance(name, str)}
