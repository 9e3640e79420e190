"""The portal's page of a finalized comparison's cases (`ComparisonCases`): its read model's
value (`server.page_reads.case_page`), read on the driver and shown as the persisted
document selects it (`present`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from graphql import SelectionSetNode, VariableNode

from server.api.direct_reads.documents import (
    DirectDocument,
    Persisted,
    Reading,
    a_name_of,
    a_string,
    an_int,
    or_none,
    variables_of,
)
from server.api.direct_reads.present import missing, one_root, selected, show_root
from server.api.movement import CaseFilter, kept_cases
from server.errors import ValidationFailed
from server.page_reads import case_page
from server.page_reads.case_page import CasePageRead, CasesRead
from server.pagination import check_page_size

ROOT: Final = "comparison"
ARGUMENTS: Final = {
    "filter": a_name_of(CaseFilter),
    "baselineCohortIndex": or_none(an_int),
    "first": an_int,
    "after": or_none(a_string),
}
"""The `cases` field's arguments, each passed as a variable (of any name), and their checks."""


async def answer(
    reading: Reading, given: Mapping[str, Any], persisted: Persisted
) -> dict[str, Any] | None:
    bound = _bound(persisted)
    if not isinstance(bound, dict):
        return None
    declared = {bound[name]: check for name, check in ARGUMENTS.items()}
    variables = variables_of(given, {"id": a_string, **declared})
    if variables is None:
        return None
    argument = {name: variables[bound[name]] for name in ARGUMENTS}
    try:
        page = await case_page.read(
            reading.connections.fetch,
            workspace_id=reading.actor.workspace_id,
            comparison_id=variables["id"],
            case_filter=kept_cases(argument["filter"]),
            baseline=argument["baselineCohortIndex"],
            first=check_page_size(argument["first"], reading.settings.max_page_size),
            after=argument["after"],
        )
    except ValidationFailed:
        return None  # the schema refuses it, naming what
    if page is None:
        return None  # not the workspace's, or unknown: the schema says NOT_FOUND
    return show_root(persisted, CasePageRead, page)


def covers(persisted: Persisted) -> list[str]:
    """What the document selects that the case page's read does not show: its structure is
    checked, not its text (any variable names, fields in any order, fragments spread)."""
    bound = _bound(persisted)
    if not isinstance(bound, dict):
        return bound
    root = selected(persisted.operation.selection_set, persisted.fragments)[0]
    assert root.selection_set is not None
    fields = selected(root.selection_set, persisted.fragments)
    cases = next(f for f in fields if f.name.value == "cases")
    others = SelectionSetNode(selections=tuple(f for f in fields if f is not cases))
    absent = missing(CasePageRead, others, persisted.fragments, frozenset())
    if cases.selection_set is None:
        return [*absent, "cases (not an object)"]
    below = missing(CasesRead, cases.selection_set, persisted.fragments, frozenset())
    return [*absent, *(f"cases.{path}" for path in below)]


def _bound(persisted: Persisted) -> dict[str, str] | list[str]:
    """{`cases` argument: the variable passed to it}, or what keeps the document from the
    direct answer: one `comparison(id: $id)` root selecting one `cases` field, each of its
    arguments a variable, no other variable, none with a default."""
    problems = one_root(persisted, ROOT, CasePageRead, frozenset({"cases"}))
    if any(not p.startswith("cases") for p in problems):
        return problems
    root = selected(persisted.operation.selection_set, persisted.fragments)[0]
    assert root.selection_set is not None
    found = [
        f for f in selected(root.selection_set, persisted.fragments) if f.name.value == "cases"
    ]
    if len(found) != 1 or found[0].alias is not None or found[0].directives:
        return ["(one `cases(…)` field, no alias or directive)"]
    bound: dict[str, str] = {}
    for argument in found[0].arguments or ():
        if not isinstance(argument.value, VariableNode):
            return [f"cases({argument.name.value}: …) (each argument a variable)"]
        bound[argument.name.value] = argument.value.name.value
    definitions = persisted.operation.variable_definitions or ()
    declared = [d.variable.name.value for d in definitions]
    if set(bound) != set(ARGUMENTS) or len(set(bound.values())) != len(bound):
        return [f"cases({', '.join(sorted(ARGUMENTS))}) (each its own variable)"]
    if any(d.default_value is not None for d in definitions):
        return ["(a variable with a default: the schema's to apply)"]
    if sorted(declared) != sorted(["id", *bound.values()]):
        return ["(variables other than `id` and those of `cases`)"]
    return bound


DOCUMENTS = (DirectDocument("ComparisonCases", answer, covers),)
