"""Direct reads are found by the persisted hash of the portal's documents
(web/src/gql/persisted-documents.json), and a document that selects what a direct answer
does not show is left to the schema, by name: a portal change cannot break a direct read
silently."""

from __future__ import annotations

import json

from server.api.direct_reads.documents import known_documents
from server.api.direct_reads.known import DOCUMENTS
from server.api.http.persisted import load
from server.settings import PERSISTED_DOCUMENTS

DIRECT = {"ComparisonsList", "ComparisonPage", "ComparisonScorecard", "ComparisonCases"}


def test_every_direct_read_answers_the_portals_persisted_document() -> None:
    persisted = load(PERSISTED_DOCUMENTS)
    known, refused = known_documents(DOCUMENTS, persisted)
    assert refused == {}
    assert {document.operation for document, _ in known.values()} == DIRECT
    raw = json.loads(PERSISTED_DOCUMENTS.read_text())
    assert all(f"sha256:{found}" in raw for found in known)


def test_a_page_document_asking_for_a_field_its_read_does_not_hold_goes_to_the_schema() -> None:
    persisted = load(PERSISTED_DOCUMENTS)
    found, text = next((k, t) for k, t in persisted.items() if "query ComparisonPage(" in t)
    changed = text.replace("caseCount", "caseCount rerunOfId shipPolicy { minCases }", 1)
    known, refused = known_documents(DOCUMENTS, {**persisted, found: changed})
    assert found not in known
    assert refused["ComparisonPage"] == ["rerunOfId", "shipPolicy"]
    # The scorecard's read holds every field of its type but those read as objects of
    # their own (a baseline's pairwise result, the stopping): those go to the schema.
    found, text = next((k, t) for k, t in persisted.items() if "ComparisonScorecard(" in t)
    changed = text.replace("usableCases", "usableCases finalizedAt", 1)
    known, refused = known_documents(DOCUMENTS, {**persisted, found: changed})
    assert found in known and refused == {}
    changed = text.replace("usableCases", "usableCases stopping { rule }", 1)
    known, refused = known_documents(DOCUMENTS, {**persisted, found: changed})
    assert found not in known and refused["ComparisonScorecard"] == [
        "scorecard.stopping (not an object)"
    ]
    # The list's rows hold what the list shows; a field of the type beyond it: the schema.
    found, text = next((k, t) for k, t in persisted.items() if "query ComparisonsList(" in t)
    changed = text.replace("spentCentsSoFar", "spentCentsSoFar checks", 1)
    known, refused = known_documents(DOCUMENTS, {**persisted, found: changed})
    assert found not in known
    assert refused["ComparisonsList"] == ["edges.node.checks"]


def test_the_case_page_is_known_by_its_structure_not_its_text() -> None:
    persisted = load(PERSISTED_DOCUMENTS)
    found, text = next((k, t) for k, t in persisted.items() if "query ComparisonCases(" in t)
    renamed = text.replace("$baseline", "$b").replace("totalCount", "__typename totalCount", 1)
    known, refused = known_documents(DOCUMENTS, {found: text.replace("$baseline", "$b")})
    assert found in known and refused == {}
    known, refused = known_documents(DOCUMENTS, {found: renamed})
    assert found not in known and refused["ComparisonCases"] == ["cases.__typename"]
    changed = text.replace("errorCode", "errorCode checks", 1)
    known, refused = known_documents(DOCUMENTS, {found: changed})
    assert refused["ComparisonCases"] == ["cases.edges.node.cohorts.trials.checks"]
    literal = text.replace("first: $first", "first: 5").replace(", $first: Int!", "")
    known, refused = known_documents(DOCUMENTS, {found: literal})
    assert found not in known and refused["ComparisonCases"]
