"""createComparison: frozen cases and bindings, defaults, every validation rule, the limit."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from bench.kit.factories import (
    ComparisonSetup,
    actor_for,
    comparison_cases,
    make_asset_version,
    make_comparison_setup,
    make_experiment,
    make_prompt_version,
    make_release,
    make_workspace,
)
from bench.kit.harness import Backend
from server.assets.models import AssetKind
from server.comparisons.models import ComparisonCase, ComparisonCohort, Trial
from server.datasets import service as dataset_service
from server.datasets import versions as dataset_versions
from server.datasets.models import DatasetCase
from server.workspaces.roles import Role
from tests.server.comparisons.documents import CREATE, count_rows, error_extensions

RUBRIC = "astv_builtin_rubric_correct_1"
BUILTIN_PROMPT = "astv_builtin_prompt_answer_1"


async def _setup(backend: Backend, **kwargs: Any) -> ComparisonSetup:
    ws = await make_workspace(backend.sessionmaker)
    return await make_comparison_setup(backend.sessionmaker, ws, **kwargs)


async def _create(backend: Backend, setup: ComparisonSetup, **fields: Any) -> Any:
    return await backend.gql(
        CREATE, {"input": setup.input(**fields)}, token=setup.workspace.tokens[Role.MEMBER]
    )


async def _frozen_cases(backend: Backend, comparison_id: str) -> list[str]:
    """The dataset item ids of a comparison's frozen cases, by ordinal."""
    async with backend.sessionmaker() as session:
        rows = await session.execute(
            select(ComparisonCase.ordinal, DatasetCase.dataset_item_id)
            .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
            .where(ComparisonCase.comparison_id == comparison_id)
            .order_by(ComparisonCase.ordinal)
        )
        pairs = rows.all()
    assert [ordinal for ordinal, _ in pairs] == list(range(len(pairs)))
    return [item for _, item in pairs]


async def test_a_new_comparison_is_setup_with_the_defaults_and_frozen_cases(
    backend: Backend,
) -> None:
    setup = await _setup(backend, cases=50)
    created = (await _create(backend, setup)).ok()["createComparison"]
    assert created["status"] == "SETUP"
    assert created["split"] == "DEV"
    assert created["trialsPerCase"] == 3
    assert created["checks"] == [{"kind": "CONTAINS"}]
    assert created["caseCount"] == 50
    assert created["budgetCapCents"] is None
    assert created["verdictState"] == "NOT_FINALIZED"
    assert created["datasetVersion"] == {"id": setup.dataset_version_id, "number": 1}
    assert [c["cohortIndex"] for c in created["cohorts"]] == [0, 1]
    assert [c["isCandidate"] for c in created["cohorts"]] == [True, False]
    assert [c["releaseId"] for c in created["cohorts"]] == setup.release_ids
    assert all(c["passRate"] is None and c["kind"] == "RELEASE" for c in created["cohorts"])
    progress = created["progress"]
    assert progress["status"] == "SETUP"
    assert (progress["seq"], progress["doneCalls"], progress["totalCalls"]) == (0, 0, 300)
    assert [c["state"] for c in progress["cohorts"]] == ["QUEUED", "QUEUED"]
    assert await _frozen_cases(backend, created["id"]) == setup.dataset_item_ids
    async with backend.sessionmaker() as session:
        trials = await session.scalars(select(Trial).where(Trial.comparison_id == created["id"]))
        assert trials.all() == []  # nothing dispatched


async def test_labels_default_to_release_names_and_the_experiment_to_the_dataset(
    backend: Backend,
) -> None:
    setup = await _setup(backend, cases=5)
    first = (await _create(backend, setup)).ok()["createComparison"]
    second = (await _create(backend, setup, label="nightly")).ok()["createComparison"]
    async with backend.sessionmaker() as session:
        dataset = await dataset_service.get_dataset(
            session=session, actor=actor_for(setup.workspace), dataset_id=setup.dataset_id
        )
    assert first["experiment"]["name"] == dataset.name
    assert second["experiment"]["id"] == first["experiment"]["id"]  # created once, reused
    labels = [c["label"] for c in first["cohorts"]]
    assert first["label"] == f"{labels[0]} vs {labels[1]}"
    assert second["label"] == "nightly"


async def test_a_given_experiment_is_used(backend: Backend) -> None:
    setup = await _setup(backend, cases=5)
    experiment = await make_experiment(backend.sessionmaker, setup.workspace, name="release-42")
    created = (await _create(backend, setup, experimentId=experiment.id)).ok()["createComparison"]
    assert created["experiment"] == {"id": experiment.id, "name": "release-42"}


async def test_dataset_id_freezes_its_latest_sealed_version(backend: Backend) -> None:
    setup = await _setup(backend, cases=5)
    async with backend.sessionmaker() as session, session.begin():
        actor = actor_for(setup.workspace, Role.MEMBER)
        dataset = await dataset_service.get_dataset(
            session=session, actor=actor, dataset_id=setup.dataset_id
        )
        v2 = await dataset_versions.create_sealed_version(
            session=session, actor=actor, asset=dataset, cases=comparison_cases(7)
        )
        await dataset_versions.open_version(session=session, actor=actor, dataset_id=dataset.id)
    fields = {"datasetId": setup.dataset_id, "datasetVersionId": None}
    created = (await _create(backend, setup, **fields)).ok()["createComparison"]
    assert created["datasetVersion"] == {"id": v2.id, "number": 2}
    assert created["caseCount"] == 7


async def test_a_variant_freezes_its_overrides_and_is_labelled_by_them(backend: Backend) -> None:
    setup = await _setup(backend, cases=5)
    ws = setup.workspace
    prompt_v2 = await make_prompt_version(
        backend.sessionmaker, ws, text="Think, then answer: {{ question }}", name="variant-prompt"
    )
    prompt_v2 = await make_prompt_version(
        backend.sessionmaker, ws, text="Answer now: {{ question }}", name="variant-prompt"
    )
    cohorts = [
        {"kind": "RELEASE", "releaseId": setup.release_ids[0]},
        {
            "kind": "VARIANT",
            "baseReleaseId": setup.release_ids[0],
            "overrides": [{"role": "PROMPT_TEMPLATE", "assetVersionId": prompt_v2.id}],
        },
        {
            "kind": "VARIANT",
            "baseReleaseId": setup.release_ids[1],
            "overrides": [{"role": "PROMPT_TEMPLATE", "assetVersionId": BUILTIN_PROMPT}],
            "label": "built-in prompt",
        },
    ]
    created = (await _create(backend, setup, cohorts=cohorts)).ok()["createComparison"]
    base_label = created["cohorts"][0]["label"]
    assert created["cohorts"][1]["kind"] == "VARIANT"
    assert created["cohorts"][1]["label"] == f"{base_label} + prompt template v2"  # in words
    assert created["cohorts"][2]["label"] == "built-in prompt"
    async with backend.sessionmaker() as session:
        rows = (
            await session.scalars(
                select(ComparisonCohort)
                .where(ComparisonCohort.comparison_id == created["id"])
                .order_by(ComparisonCohort.cohort_index)
            )
        ).all()
    assert rows[0].bindings == {
        "model_config": setup.model_config_version_ids[0],
        "prompt_template": setup.prompt_version_ids[0],
    }
    assert rows[1].bindings == {
        "model_config": setup.model_config_version_ids[0],
        "prompt_template": prompt_v2.id,
    }
    assert rows[1].overrides == {"prompt_template": prompt_v2.id}
    assert rows[2].bindings["prompt_template"] == BUILTIN_PROMPT
    assert rows[2].release_id == setup.release_ids[1]


def _release(setup: ComparisonSetup, index: int = 0) -> dict[str, Any]:
    return {"kind": "RELEASE", "releaseId": setup.release_ids[index]}


def _variant(setup: ComparisonSetup, *overrides: tuple[str, str]) -> dict[str, Any]:
    return {
        "kind": "VARIANT",
        "baseReleaseId": setup.release_ids[1],
        "overrides": [{"role": role, "assetVersionId": vid} for role, vid in overrides],
    }


INVALID: list[tuple[str, Any]] = [
    ("one cohort", lambda s: {"cohorts": [_release(s)]}),
    ("nine cohorts", lambda s: {"cohorts": [_release(s, i % 2) for i in range(9)]}),
    ("no trials", lambda _s: {"trialsPerCase": 0}),
    ("eleven trials", lambda _s: {"trialsPerCase": 11}),
    ("both dataset ids", lambda s: {"datasetId": s.dataset_id}),
    ("no dataset", lambda _s: {"datasetVersionId": None}),
    ("unknown check", lambda _s: {"checks": [{"kind": "VIBES"}]}),
    ("empty checks", lambda _s: {"checks": []}),
    ("tool check without a name", lambda _s: {"checks": [{"kind": "TOOL_CALL"}]}),
    ("sample of zero", lambda _s: {"sample": {"size": 0}}),
    ("bad variable path", lambda _s: {"variables": [{"variable": "question", "path": "q"}]}),
    ("unused variable", lambda _s: {"variables": [{"variable": "nope", "path": "input.x"}]}),
    ("negative budget", lambda _s: {"budgetCapCents": -1}),
    ("blank label", lambda _s: {"label": "  "}),
    (
        "overrides on a RELEASE",
        lambda s: {
            "cohorts": [
                _release(s),
                {
                    **_release(s, 1),
                    "overrides": [
                        {"role": "PROMPT_TEMPLATE", "assetVersionId": s.prompt_version_ids[0]}
                    ],
                },
            ]
        },
    ),  # fmt: skip
    ("a VARIANT without overrides", lambda s: {"cohorts": [_release(s), _variant(s)]}),
    (
        "a VARIANT with releaseId",
        lambda s: {"cohorts": [_release(s), {**_release(s, 1), "kind": "VARIANT"}]},
    ),
    ("a RELEASE without releaseId", lambda s: {"cohorts": [_release(s), {"kind": "RELEASE"}]}),
    (
        "a role overridden twice",
        lambda s: {
            "cohorts": [
                _release(s),
                _variant(
                    s,
                    ("PROMPT_TEMPLATE", s.prompt_version_ids[0]),
                    ("PROMPT_TEMPLATE", BUILTIN_PROMPT),
                ),
            ]
        },
    ),
    (
        "an override of the wrong kind",
        lambda s: {
            "cohorts": [
                _release(s),
                _variant(s, ("PROMPT_TEMPLATE", s.model_config_version_ids[0])),
            ]
        },
    ),
    (
        "an unknown override",
        lambda s: {"cohorts": [_release(s), _variant(s, ("MODEL_CONFIG", "astv_missing"))]},
    ),
    ("the same release twice", lambda s: {"cohorts": [_release(s), _release(s)]}),
    ("an empty split", lambda _s: {"split": "HOLDOUT"}),
    (
        "a judge check with a prompt as rubric",
        lambda s: {
            "checks": [
                {
                    "kind": "JUDGE_RUBRIC",
                    "rubricVersionId": s.prompt_version_ids[0],
                    "judgeModelConfigVersionId": s.model_config_version_ids[0],
                }
            ]
        },
    ),
    (
        "pairwise with a rubric as judge config",
        lambda _s: {"pairwise": {"rubricVersionId": RUBRIC, "judgeModelConfigVersionId": RUBRIC}},
    ),
]


@pytest.mark.parametrize(("case", "fields"), INVALID, ids=[name for name, _ in INVALID])
async def test_invalid_input_is_refused_and_writes_nothing(
    backend: Backend, case: str, fields: Any
) -> None:
    setup = await _setup(backend, cases=3)
    before = await count_rows(backend, setup.workspace.id)
    result = await _create(backend, setup, **fields(setup))
    assert result.codes == ["VALIDATION_FAILED"], (case, result.errors)
    assert await count_rows(backend, setup.workspace.id) == before == (0, 0)


async def test_a_bad_override_names_its_role(backend: Backend) -> None:
    setup = await _setup(backend, cases=3)
    other = await _setup(backend, cases=3)  # another workspace's prompt version
    for version_id in (setup.model_config_version_ids[0], other.prompt_version_ids[0]):
        cohorts = [_release(setup), _variant(setup, ("PROMPT_TEMPLATE", version_id))]
        result = await _create(backend, setup, cohorts=cohorts)
        assert result.codes == ["VALIDATION_FAILED"]
        assert error_extensions(result)["role"] == "PROMPT_TEMPLATE"
        assert "prompt_template" in result.errors[0]["message"]


async def test_refuse_names_the_first_missing_variable_and_case(backend: Backend) -> None:
    cases = comparison_cases(4)
    cases[2]["input"] = {"other": "no question here"}
    cases[3]["input"] = {"other": "nor here"}
    setup = await _setup(backend, case_list=cases)
    before = await count_rows(backend, setup.workspace.id)
    result = await _create(backend, setup, missingFieldPolicy="REFUSE")
    assert result.codes == ["VALIDATION_FAILED"]
    extensions = error_extensions(result)
    assert (extensions["variable"], extensions["datasetItemId"]) == ("question", "q-002")
    assert "2 cases lack a mapped field" in result.errors[0]["message"]
    assert await count_rows(backend, setup.workspace.id) == before


async def test_leave_out_drops_a_case_missing_any_cohorts_variable_for_every_cohort(
    backend: Backend,
) -> None:
    cases = comparison_cases(4)
    for case in cases:
        case["input"]["context"] = "ctx"
    del cases[1]["input"]["context"]  # only cohort 1's template uses `context`
    setup = await _setup(
        backend,
        case_list=cases,
        prompt_texts=["Q: {{ question }}", "Q: {{ question }} C: {{ context }}"],
    )
    created = (await _create(backend, setup)).ok()["createComparison"]
    assert created["caseCount"] == 3
    assert await _frozen_cases(backend, created["id"]) == ["q-000", "q-002", "q-003"]


async def test_variables_map_to_other_fields_and_a_string_input_is_the_whole_input(
    backend: Backend,
) -> None:
    cases = [
        {"datasetItemId": "a", "input": {"q": "one?"}, "expected": "1"},
        {"datasetItemId": "b", "input": {"q": "two?"}, "expected": "2"},
    ]
    setup = await _setup(backend, case_list=cases)
    mapped = [{"variable": "question", "path": "input.q"}]
    created = (await _create(backend, setup, variables=mapped, missingFieldPolicy="REFUSE")).ok()
    assert created["createComparison"]["caseCount"] == 2
    strings = await _setup(backend, case_list=comparison_cases(3, string_input=True))
    created = (await _create(backend, strings, missingFieldPolicy="REFUSE")).ok()
    assert created["createComparison"]["caseCount"] == 3


async def test_a_seeded_sample_is_reproducible_and_kept_in_dataset_order(backend: Backend) -> None:
    setup = await _setup(backend, cases=40)
    runs = []
    for seed in (7, 7, 8):
        created = (await _create(backend, setup, sample={"size": 10, "seed": seed})).ok()
        runs.append(await _frozen_cases(backend, created["createComparison"]["id"]))
    assert len(runs[0]) == 10
    assert runs[0] == sorted(runs[0])  # q-000… ids sort like dataset order
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]
    everything = (await _create(backend, setup, sample={"size": 500})).ok()
    assert everything["createComparison"]["caseCount"] == 40


async def test_options_are_stored(backend: Backend) -> None:
    setup = await _setup(backend, cases=5, holdout_cases=4)
    checks = [{"kind": "EXACT_MATCH"}, {"kind": "TOOL_CALL", "toolName": "web_search"}]
    created = (
        await _create(
            backend, setup, split="HOLDOUT", trialsPerCase=1, checks=checks, budgetCapCents=150.5
        )
    ).ok()["createComparison"]
    assert (created["split"], created["trialsPerCase"], created["caseCount"]) == ("HOLDOUT", 1, 4)
    assert created["checks"] == checks
    assert created["budgetCapCents"] == 150.5
    assert created["progress"]["totalCalls"] == 8


async def test_judge_calls_count_toward_the_total(backend: Backend) -> None:
    setup = await _setup(backend, cases=10, cohorts=3)
    judge = setup.model_config_version_ids[0]
    checks = [
        {"kind": "CONTAINS"},
        {"kind": "JUDGE_RUBRIC", "rubricVersionId": RUBRIC, "judgeModelConfigVersionId": judge},
    ]
    created = (await _create(backend, setup, trialsPerCase=2, checks=checks)).ok()[
        "createComparison"
    ]
    # 10 cases × 2 trials × 3 cohorts × (1 call + 1 judge)
    assert created["progress"]["totalCalls"] == 120


async def test_pairwise_calls_count_toward_the_total(backend: Backend) -> None:
    setup = await _setup(backend, cases=10, cohorts=3)
    judge = setup.model_config_version_ids[0]
    checks = [
        {"kind": "CONTAINS"},
        {"kind": "JUDGE_RUBRIC", "rubricVersionId": RUBRIC, "judgeModelConfigVersionId": judge},
    ]
    pairwise = {"rubricVersionId": RUBRIC, "judgeModelConfigVersionId": judge}
    created = (
        await _create(backend, setup, trialsPerCase=2, checks=checks, pairwise=pairwise)
    ).ok()["createComparison"]
    # 10 cases × 2 trials × 3 cohorts × (1 call + 1 judge) + 10 × 2 × 2 baselines × 2 orders
    assert created["progress"]["totalCalls"] == 120 + 80


async def test_more_than_20000_calls_is_quota_exceeded_and_writes_nothing(
    backend: Backend,
) -> None:
    setup = await _setup(backend, cases=1001)
    before = await count_rows(backend, setup.workspace.id)
    result = await _create(backend, setup, trialsPerCase=10)
    assert result.codes == ["QUOTA_EXCEEDED"]
    assert error_extensions(result)["calls"] == 20_020
    assert await count_rows(backend, setup.workspace.id) == before
    exactly = await _create(backend, setup, trialsPerCase=10, sample={"size": 1000})
    assert exactly.ok()["createComparison"]["progress"]["totalCalls"] == 20_000


async def test_the_dataset_version_must_be_sealed(backend: Backend) -> None:
    setup = await _setup(backend, cases=3)
    async with backend.sessionmaker() as session, session.begin():
        open_version = await dataset_versions.open_version(
            session=session,
            actor=actor_for(setup.workspace, Role.MEMBER),
            dataset_id=setup.dataset_id,
        )
    result = await _create(backend, setup, datasetVersionId=open_version.id)
    assert result.codes == ["VALIDATION_FAILED"]
    assert error_extensions(result)["field"] == "datasetVersionId"


async def test_another_workspaces_ids_are_not_found(backend: Backend) -> None:
    setup = await _setup(backend, cases=3)
    other = await _setup(backend, cases=3)
    experiment = await make_experiment(backend.sessionmaker, other.workspace)
    foreign: list[dict[str, Any]] = [
        {"datasetVersionId": other.dataset_version_id},
        {"datasetVersionId": None, "datasetId": other.dataset_id},
        {"experimentId": experiment.id},
        {"cohorts": [_release(setup), {"kind": "RELEASE", "releaseId": other.release_ids[0]}]},
        {
            "cohorts": [
                _release(setup),
                {
                    "kind": "VARIANT",
                    "baseReleaseId": other.release_ids[0],
                    "overrides": [{"role": "PROMPT_TEMPLATE", "assetVersionId": BUILTIN_PROMPT}],
                },
            ]
        },
    ]
    for fields in foreign:
        result = await _create(backend, setup, **fields)
        assert result.codes == ["NOT_FOUND"], fields
    assert await count_rows(backend, setup.workspace.id) == (0, 0)


@pytest.mark.parametrize("role", list(Role), ids=lambda r: r.value)
async def test_creating_needs_a_member(backend: Backend, role: Role) -> None:
    setup = await _setup(backend, cases=3)
    result = await backend.gql(CREATE, {"input": setup.input()}, token=setup.workspace.tokens[role])
    if role.at_least(Role.MEMBER):
        assert result.ok()["createComparison"]["status"] == "SETUP"
    else:
        assert result.codes == ["FORBIDDEN"]
        assert await count_rows(backend, setup.workspace.id) == (0, 0)


async def test_creating_is_audited(backend: Backend) -> None:
    setup = await _setup(backend, cases=3)
    created = (await _create(backend, setup)).ok()["createComparison"]
    events = await backend.gql(
        '{ auditEvents(first: 5, action: "comparison.create") '
        "{ edges { node { targetId details } } } }",
        token=setup.workspace.owner,
    )
    [edge] = events.ok()["auditEvents"]["edges"]
    assert edge["node"]["targetId"] == created["id"]
    assert edge["node"]["details"]["caseCount"] == 3


async def test_a_built_in_rubric_and_a_judge_config_resolve(backend: Backend) -> None:
    setup = await _setup(backend, cases=3)
    rubric = await make_asset_version(
        backend.sessionmaker,
        setup.workspace,
        kind=AssetKind.RUBRIC,
        content={"text": "Is it right?", "scale": "PASS_FAIL"},
    )
    judge = setup.model_config_version_ids[1]
    checks = [
        {"kind": "JUDGE_RUBRIC", "rubricVersionId": rid, "judgeModelConfigVersionId": judge}
        for rid in (rubric.id, RUBRIC)
    ]
    created = (await _create(backend, setup, checks=checks, trialsPerCase=1)).ok()
    assert created["createComparison"]["progress"]["totalCalls"] == 3 * 2 * 3


async def test_a_release_of_the_same_prompt_and_config_is_the_same_configuration(
    backend: Backend,
) -> None:
    setup = await _setup(backend, cases=3)
    twin = await make_release(
        backend.sessionmaker,
        setup.workspace,
        prompt_version_id=setup.prompt_version_ids[0],
        model_config_version_id=setup.model_config_version_ids[0],
    )
    result = await _create(
        backend, setup, cohorts=[_release(setup), {"kind": "RELEASE", "releaseId": twin.id}]
    )
    assert result.codes == ["VALIDATION_FAILED"]
    assert error_extensions(result)["reason"] == "SAME_CONFIGURATION"
    # Numbered from 1, as the portal's "Cohort 1 (Candidate)" and "Cohort 2" groups are.
    assert result.errors[0]["message"].startswith("Cohorts 1 and 2 bind the same versions")


async def test_a_dataset_without_a_sealed_version_is_refused(backend: Backend) -> None:
    setup = await _setup(backend, cases=3)
    async with backend.sessionmaker() as session, session.begin():
        dataset = await dataset_service.create_dataset(
            session=session, actor=actor_for(setup.workspace, Role.MEMBER), name="empty"
        )
    result = await _create(backend, setup, datasetVersionId=None, datasetId=dataset.id)
    assert result.codes == ["VALIDATION_FAILED"]
    assert error_extensions(result)["field"] == "datasetId"
