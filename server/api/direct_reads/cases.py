"""The portal's page of a finalized comparison's cases (`ComparisonCases`): its read model's
value (`server.page_reads.case_page`), read on the driver and shown as the persisted
document selects it (`present`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.api.direct_reads.documents import (
    DirectDocument,
    Persisted,
    Reading,
    a_name_of,
    a_string,
    an_int,
    or_none,
    variables_of,
    written_for,
)
from server.api.direct_reads.present import show_root
from server.api.movement import CaseFilter, kept_cases
from server.errors import ValidationFailed
from server.page_reads import case_page
from server.page_reads.case_page import CasePageRead
from server.pagination import check_page_size

CASES = """
query ComparisonCases(
  $id: ID!, $filter: CaseFilter!, $baseline: Int, $first: Int!, $after: String
) {
  comparison(id: $id) {
    id
    cases(filter: $filter, baselineCohortIndex: $baseline, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        cursor
        node {
          ordinal datasetItemId classification
          cohorts {
            cohortIndex passed passFraction score trials { trialIndex passed output errorCode }
          }
        }
      }
    }
  }
}
"""
"""The document the answer takes (its `cases` field's arguments the variables of these
names, which `present` does not read), up to the order of its fields."""

_VARIABLES = {
    "id": a_string,
    "filter": a_name_of(CaseFilter),
    "baseline": or_none(an_int),
    "first": an_int,
    "after": or_none(a_string),
}


async def answer(
    reading: Reading, given: Mapping[str, Any], persisted: Persisted
) -> dict[str, Any] | None:
    variables = variables_of(given, _VARIABLES)
    if variables is None:
        return None
    try:
        page = await case_page.read(
            reading.connections.fetch,
            workspace_id=reading.actor.workspace_id,
            comparison_id=variables["id"],
            case_filter=kept_cases(variables["filter"]),
            baseline=variables["baseline"],
            first=check_page_size(variables["first"], reading.settings.max_page_size),
            after=variables["after"],
        )
    except ValidationFailed:
        return None  # the schema refuses it, naming what
    if page is None:
        return None  # not the workspace's, or unknown: the schema says NOT_FOUND
    return show_root(persisted, CasePageRead, page)


DOCUMENTS = (DirectDocument("ComparisonCases", answer, written_for(CASES)),)
