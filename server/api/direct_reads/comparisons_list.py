"""The portal's comparisons page (`ComparisonsList`): its read model's value
(`server.page_reads.comparisons_list`), read on the driver and shown as the persisted
document selects it (`present`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from graphql import VariableNode

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
from server.api.direct_reads.present import missing, selected, show_root
from server.comparisons.models import ComparisonStatus
from server.errors import ValidationFailed
from server.page_reads import comparisons_list
from server.page_reads.comparisons_list import ComparisonsListRead
from server.pagination import check_page_size

ROOT: Final = "comparisons"
ARGUMENTS: Final = frozenset({"first", "after", "status"})
"""Each passed as the variable of its own name (`comparisons(first: $first, …)`)."""

_VARIABLES = {
    "first": an_int,
    "after": or_none(a_string),
    "status": or_none(a_name_of(ComparisonStatus)),
}


async def answer(
    reading: Reading, given: Mapping[str, Any], persisted: Persisted
) -> dict[str, Any] | None:
    variables = variables_of(given, _VARIABLES)
    if variables is None:
        return None
    status = variables["status"]
    try:
        size = check_page_size(variables["first"], reading.settings.max_page_size)
        page = await comparisons_list.read(
            reading.connections.fetch,
            dialect="postgresql",
            workspace_id=reading.actor.workspace_id,
            first=size,
            after=variables["after"],
            status=ComparisonStatus(status) if status is not None else None,
        )
    except (ValidationFailed, ValueError):
        return None  # the schema refuses it (or a stored scorecard it cannot read)
    return show_root(persisted, ComparisonsListRead, page)


def covers(persisted: Persisted) -> list[str]:
    roots = selected(persisted.operation.selection_set, persisted.fragments)
    if len(roots) != 1 or roots[0].name.value != ROOT or roots[0].selection_set is None:
        return ["(one `comparisons(first: $first, …)` root field)"]
    root, selections = roots[0], roots[0].selection_set
    for argument in root.arguments or ():
        name, value = argument.name.value, argument.value
        if not (name in ARGUMENTS and isinstance(value, VariableNode) and value.name.value == name):
            return [f"comparisons({name}: …) (each argument the variable of its name)"]
    definitions = persisted.operation.variable_definitions or ()
    if any(d.default_value is not None for d in definitions):
        return ["(a variable with a default: the schema's to apply)"]
    declared = {d.variable.name.value for d in definitions}
    if not declared <= ARGUMENTS:
        return [f"(variables other than {sorted(ARGUMENTS)})"]
    if {a.name.value for a in root.arguments or ()} != declared:
        return ["(a declared variable not passed to `comparisons`)"]
    return missing(ComparisonsListRead, selections, persisted.fragments, frozenset())


DOCUMENTS = (DirectDocument("ComparisonsList", answer, covers),)
