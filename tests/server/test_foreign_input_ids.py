"""Every ID field of every input type, given another workspace's id, answers exactly as an id
that does not exist: NOT_FOUND naming the field sent, or — for a release binding or a cohort
override, whose rule is to name the role (docs/domain.md) — VALIDATION_FAILED naming the role.

The fields come from the schema: a new one fails `test_every_input_id_has_a_case` until
`CASES` says how to send it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graphql import GraphQLInputObjectType, get_named_type

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend, GraphQLResult
from server.api.schema import build_schema
from server.settings import Settings
from tests.server.foreign_world import World, build_world

CREATE = "mutation($i: CreateComparisonInput!) { createComparison(input: $i) { id } }"
PREVIEW = "query($i: CreateComparisonInput!) { comparisonPreview(input: $i) { canStart } }"
ADD_VERSION = "mutation($i: AddAssetVersionInput!) { addAssetVersion(input: $i) { id } }"
CREATE_RELEASE = "mutation($i: CreateReleaseInput!) { createRelease(input: $i) { id } }"
LABEL = "mutation($i: TrialRefInput!) { labelTrial(trial: $i, passed: true) { passed } }"
FROM_TRACES = (
    "mutation($i: CreateDatasetFromTracesInput!) { createDatasetFromTraces(input: $i) { taken } }",
    "query($i: CreateDatasetFromTracesInput!) { previewDatasetFromTraces(input: $i) { taken } }",
)
MADE_UP = "xyz_00000000000000000000000000"
RUBRIC = {"text": "The better answer wins.", "scale": "PASS_FAIL"}

Build = Callable[[World, str], dict[str, Any]]
"""(my world, the foreign or made-up id) → the input sent."""


@dataclass(frozen=True)
class Case:
    documents: tuple[str, ...]
    build: Build
    code: str
    field: str | None
    """`extensions.field`; None: not checked (a binding names its role and list instead)."""


def _comparison(mine: World, **fields: Any) -> dict[str, Any]:
    return mine.setup.input(trialsPerCase=1, **fields)


def _cohort(mine: World, index: int, cohort: dict[str, Any]) -> dict[str, Any]:
    value = _comparison(mine)
    value["cohorts"][index] = cohort
    return value


def _pairwise(mine: World, rubric: str, config: str) -> dict[str, Any]:
    return _comparison(
        mine, pairwise={"rubricVersionId": rubric, "judgeModelConfigVersionId": config}
    )


def _without_version(mine: World, dataset_id: str) -> dict[str, Any]:
    value = _comparison(mine, datasetId=dataset_id)
    del value["datasetVersionId"]
    return value


COMPARE = (CREATE, PREVIEW)
CASES: dict[str, Case] = {
    "CreateComparisonInput.datasetId": Case(
        COMPARE, lambda m, x: _without_version(m, x), "NOT_FOUND", "datasetId"
    ),
    "CreateComparisonInput.datasetVersionId": Case(
        COMPARE, lambda m, x: _comparison(m, datasetVersionId=x), "NOT_FOUND", "datasetVersionId"
    ),
    "CreateComparisonInput.experimentId": Case(
        COMPARE, lambda m, x: _comparison(m, experimentId=x), "NOT_FOUND", "experimentId"
    ),
    "ComparisonCohortInput.releaseId": Case(
        COMPARE,
        lambda m, x: _cohort(m, 1, {"kind": "RELEASE", "releaseId": x}),
        "NOT_FOUND",
        "cohorts[1].releaseId",
    ),
    "ComparisonCohortInput.baseReleaseId": Case(
        COMPARE,
        lambda m, x: _cohort(
            m,
            1,
            {
                "kind": "VARIANT",
                "baseReleaseId": x,
                "overrides": [
                    {"role": "PROMPT_TEMPLATE", "assetVersionId": m.ids["prompt_version"][0]}
                ],
            },
        ),
        "NOT_FOUND",
        "cohorts[1].baseReleaseId",
    ),
    "CohortOverrideInput.assetVersionId": Case(
        COMPARE,
        lambda m, x: _cohort(
            m,
            1,
            {
                "kind": "VARIANT",
                "baseReleaseId": m.ids["release"][0],
                "overrides": [{"role": "PROMPT_TEMPLATE", "assetVersionId": x}],
            },
        ),
        "VALIDATION_FAILED",
        None,
    ),
    "PairwiseInput.rubricVersionId": Case(
        COMPARE,
        lambda m, x: _pairwise(m, x, m.ids["model_config_version"][0]),
        "NOT_FOUND",
        "pairwise.rubricVersionId",
    ),
    "PairwiseInput.judgeModelConfigVersionId": Case(
        COMPARE,
        lambda m, x: _pairwise(m, m.ids["rubric_version"][0], x),
        "NOT_FOUND",
        "pairwise.judgeModelConfigVersionId",
    ),
    "AddAssetVersionInput.assetId": Case(
        (ADD_VERSION,), lambda _, x: {"assetId": x, "content": RUBRIC}, "NOT_FOUND", None
    ),
    "ReleaseBindingInput.assetVersionId": Case(
        (CREATE_RELEASE,),
        lambda m, x: {
            "name": "foreign",
            "bindings": [
                {"role": "PROMPT_TEMPLATE", "assetVersionId": x},
                {"role": "MODEL_CONFIG", "assetVersionId": m.ids["model_config_version"][0]},
            ],
        },
        "VALIDATION_FAILED",
        None,
    ),
    "TrialRefInput.comparisonId": Case(
        (LABEL,),
        lambda _, x: {"comparisonId": x, "cohortIndex": 0, "datasetItemId": "q-1", "trialIndex": 0},
        "NOT_FOUND",
        None,
    ),
    "TrialRefInput.runId": Case(
        (LABEL,),
        lambda _, x: {"runId": x, "cohortIndex": 0, "datasetItemId": "q-1", "trialIndex": 0},
        "NOT_FOUND",
        None,
    ),
    "CreateDatasetFromTracesInput.datasetId": Case(
        FROM_TRACES,
        lambda _, x: {"filter": {}, "sample": {"size": 1}, "datasetId": x},
        "NOT_FOUND",
        "datasetId",
    ),
}
FOREIGN_KIND = {
    "CreateComparisonInput.datasetId": "dataset",
    "CreateComparisonInput.datasetVersionId": "dataset_version",
    "CreateComparisonInput.experimentId": "experiment",
    "ComparisonCohortInput.releaseId": "release",
    "ComparisonCohortInput.baseReleaseId": "release",
    "CohortOverrideInput.assetVersionId": "prompt_version",
    "PairwiseInput.rubricVersionId": "rubric_version",
    "PairwiseInput.judgeModelConfigVersionId": "model_config_version",
    "AddAssetVersionInput.assetId": "asset",
    "ReleaseBindingInput.assetVersionId": "prompt_version",
    "TrialRefInput.comparisonId": "comparison",
    "TrialRefInput.runId": "run",
    "CreateDatasetFromTracesInput.datasetId": "dataset",
}


def _input_ids() -> set[str]:
    found = set()
    for name, type_ in build_schema(Settings())._schema.type_map.items():
        if isinstance(type_, GraphQLInputObjectType):
            for field_name, field in type_.fields.items():
                if get_named_type(field.type).name == "ID":
                    found.add(f"{name}.{field_name}")
    return found


TESTED_WITH_THEIR_MUTATION = {
    "PlaygroundPaneInput.connectionId",
    "PlaygroundPaneInput.promptVersionId",
    "PlaygroundPaneInput.assetId",
    "PlaygroundRunInput.datasetId",
    "PromptGateSettingsInput.datasetId",
}
"""Probed the same way beside the mutations that take them
(tests/server/playground/test_gate_settings.py)."""


def test_every_input_id_has_a_case() -> None:
    assert set(CASES) | TESTED_WITH_THEIR_MUTATION == _input_ids()
    assert set(CASES) == set(FOREIGN_KIND)


def _shape(result: GraphQLResult, sent: str) -> list[tuple[Any, ...]]:
    """The errors with the id sent blanked out: what the caller learns."""
    return [
        (
            e.get("extensions", {}).get("code"),
            e.get("extensions", {}).get("field"),
            e.get("extensions", {}).get("role"),
            re.sub(re.escape(sent), "<id>", e.get("message", "")),
        )
        for e in result.errors
    ]


async def test_foreign_ids_in_inputs_answer_as_unknown_ones(backend: Backend) -> None:
    mine_ws = await make_workspace(backend.sessionmaker, name="mine")
    theirs_ws = await make_workspace(backend.sessionmaker, name="theirs")
    mine = await build_world(backend, mine_ws)
    theirs = await build_world(backend, theirs_ws)
    wrong: list[str] = []
    for key, case in CASES.items():
        foreign = theirs.ids[FOREIGN_KIND[key]][0]
        for document in case.documents:
            sent = copy.deepcopy(case.build(mine, foreign))
            answer = await backend.gql(document, {"i": sent}, token=mine_ws.owner)
            unknown = await backend.gql(
                document, {"i": case.build(mine, MADE_UP)}, token=mine_ws.owner
            )
            shape = _shape(answer, foreign)
            where = f"{key} in {document.split('(')[0]}"
            if shape != _shape(unknown, MADE_UP):
                wrong.append(f"{where}: {shape} differs from an unknown id's")
            elif [s[0] for s in shape] != [case.code]:
                wrong.append(f"{where}: {shape}")
            elif case.field is not None and shape[0][1] != case.field:
                wrong.append(f"{where}: names {shape[0][1]!r}, not {case.field!r}")
            elif case.field is None and case.code == "VALIDATION_FAILED" and shape[0][2] is None:
                wrong.append(f"{where}: names no role")
    assert wrong == [], "\n".join(wrong)
