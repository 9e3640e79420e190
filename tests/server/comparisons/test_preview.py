"""comparisonPreview: its figures, each warning and blocker, and that it writes nothing."""

from __future__ import annotations

import math
from typing import Any

import pytest
from sqlalchemy import insert

from bench.kit.factories import (
    ComparisonSetup,
    comparison_cases,
    make_asset_version,
    make_comparison,
    make_comparison_setup,
    make_connection,
    make_workspace,
)
from bench.kit.harness import Backend
from server.assets.models import AssetKind
from server.comparisons.models import Trial, TrialState
from server.db import utcnow
from server.workspaces.roles import Role
from tests.server.comparisons.documents import PREVIEW, count_rows

SYSTEM = "You are a careful assistant."  # the factory's system message
RUBRIC_TEXT = "Is it right?"


async def _setup(backend: Backend, **kwargs: Any) -> ComparisonSetup:
    ws = await make_workspace(backend.sessionmaker)
    return await make_comparison_setup(backend.sessionmaker, ws, **kwargs)


async def _preview(
    backend: Backend, setup: ComparisonSetup, role: Role = Role.MEMBER, **fields: Any
) -> dict[str, Any]:
    result = await backend.gql(
        PREVIEW, {"input": setup.input(**fields)}, token=setup.workspace.tokens[role]
    )
    preview: dict[str, Any] = result.ok()["comparisonPreview"]
    return preview


def _codes(notes: list[dict[str, str]]) -> list[str]:
    return [note["code"] for note in notes]


def _tokens(*texts: str) -> int:
    """Characters ÷ 4, rounded up: the documented estimate."""
    return math.ceil(sum(len(t) for t in texts) / 4)


async def test_figures_of_50_cases_3_trials_2_cohorts(backend: Backend) -> None:
    # 100 ¢ per million input tokens = 1 µ$ a token; 200 ¢ per million output = 2 µ$ a token.
    setup = await _setup(
        backend,
        cases=50,
        max_output_tokens=100,
        input_cents_per_million_tokens=100,
        output_cents_per_million_tokens=200,
        monthly_cap_cents=5000,
    )
    preview = await _preview(backend, setup)
    assert (preview["totalCalls"], preview["judgeCalls"], preview["callLimit"]) == (300, 0, 20_000)
    assert [c["calls"] for c in preview["cohorts"]] == [150, 150]
    assert (preview["splitCaseCount"], preview["caseCount"], preview["leftOutCount"]) == (50, 50, 0)
    # Every question "What is 007 + 007?" has 18 characters, so each rendered prompt has
    # the same length: 28 (system) + 20 ("Answer briefly (0): ") + 18 = 66 → 17 tokens.
    tokens = _tokens(SYSTEM, "Answer briefly (0): ", "What is 000 + 000?")
    assert tokens == 17
    per_call_micros = tokens * 1 + 100 * 2  # 217 µ$
    per_cohort_cents = 150 * per_call_micros / 10_000  # 3.255 ¢
    assert [c["costBoundCents"] for c in preview["cohorts"]] == [per_cohort_cents] * 2
    assert preview["costBoundCents"] == pytest.approx(6.51)
    assert preview["summary"] == (
        "Up to 300 model calls: 150 for each cohort, judge calls included. "
        "Up to 6.5 ¢ if every call uses its max output tokens."
    )
    [line] = preview["variables"]
    assert line["text"] == "question ← input.question · found in 50 of 50 cases"
    assert (line["variable"], line["path"], line["found"], line["total"]) == (
        "question", "input.question", 50, 50
    )  # fmt: skip
    [connection] = preview["connections"]
    assert connection["connectionId"] == setup.connection_id
    assert (connection["kind"], connection["status"]) == ("SIMULATED", "READY")
    assert connection["monthlyCapCents"] == 5000
    assert connection["text"].endswith(": $0.00 spent of $50.00 this month.")
    assert preview["canStart"] is True
    assert (preview["warnings"], preview["blockers"]) == ([], [])


async def test_month_to_date_spend_comes_from_recorded_trials(backend: Backend) -> None:
    setup = await _setup(backend, cases=3, monthly_cap_cents=5000)
    comparison_id = await make_comparison(backend.sessionmaker, setup, trials=1)
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            insert(Trial),
            [
                {
                    "comparison_id": comparison_id,
                    "case_ordinal": ordinal,
                    "cohort_index": 0,
                    "trial_index": 0,
                    "connection_id": setup.connection_id,
                    "state": TrialState.COMPLETED,
                    "delivery_id": "dlv_test",
                    "lease_token": 1,
                    "cost_micros": 160_000,  # 16 ¢
                    "completed_at": utcnow(),
                }
                for ordinal in range(2)
            ],
        )
    [connection] = (await _preview(backend, setup))["connections"]
    assert connection["spentCentsThisMonth"] == 32.0
    assert connection["text"].endswith(": $0.32 spent of $50.00 this month.")


async def test_judge_calls_are_counted_and_priced(backend: Backend) -> None:
    setup = await _setup(
        backend,
        cases=50,
        max_output_tokens=100,
        input_cents_per_million_tokens=100,
        output_cents_per_million_tokens=200,
    )
    ws = setup.workspace
    judge_connection = await make_connection(
        backend.sessionmaker,
        ws,
        name="judge",
        input_cents_per_million_tokens=100,
        output_cents_per_million_tokens=100,
    )
    judge = await make_asset_version(
        backend.sessionmaker,
        ws,
        kind=AssetKind.MODEL_CONFIG,
        content={"connectionId": judge_connection.id, "model": "judge", "maxOutputTokens": 10},
    )
    rubric = await make_asset_version(
        backend.sessionmaker,
        ws,
        kind=AssetKind.RUBRIC,
        content={"text": RUBRIC_TEXT, "scale": "PASS_FAIL"},
    )
    checks = [
        {"kind": "CONTAINS"},
        {
            "kind": "JUDGE_RUBRIC",
            "rubricVersionId": rubric.id,
            "judgeModelConfigVersionId": judge.id,
        },
    ]
    preview = await _preview(backend, setup, checks=checks)
    assert (preview["totalCalls"], preview["judgeCalls"]) == (600, 300)
    assert [(c["calls"], c["judgeCalls"]) for c in preview["cohorts"]] == [(300, 150)] * 2
    # The judge reads the rubric (3 tokens), the prompt (17) and the answer at its max (100),
    # and writes at most 10 tokens, all at 1 µ$ a token: 130 µ$ beside each 217 µ$ call.
    prompt = _tokens(SYSTEM, "Answer briefly (0): ", "What is 000 + 000?")
    judge_micros = (_tokens(RUBRIC_TEXT) + prompt + 100) * 1 + 10 * 1
    assert judge_micros == 130
    expected = 150 * (prompt + 200 + judge_micros) / 10_000
    assert [c["costBoundCents"] for c in preview["cohorts"]] == [expected] * 2
    assert {c["connectionId"] for c in preview["connections"]} == {
        setup.connection_id, judge_connection.id
    }  # fmt: skip
    assert "judge calls included" in preview["summary"]


async def test_pairwise_adds_two_judge_calls_per_case_and_trial_to_each_baseline(
    backend: Backend,
) -> None:
    setup = await _setup(backend, cases=10, cohorts=3)
    pairwise = {
        "rubricVersionId": "astv_builtin_rubric_correct_1",
        "judgeModelConfigVersionId": setup.model_config_version_ids[0],
    }
    preview = await _preview(backend, setup, trialsPerCase=2, pairwise=pairwise)
    assert [c["calls"] for c in preview["cohorts"]] == [20, 60, 60]
    assert preview["totalCalls"] == 140
    assert "20 for " in preview["summary"] and "60 for " in preview["summary"]


async def test_fewer_than_3_trials_warns_about_flips(backend: Backend) -> None:
    setup = await _setup(backend, cases=20)
    preview = await _preview(backend, setup, trialsPerCase=2)
    assert preview["warnings"] == [
        {"code": "FEW_TRIALS", "message": "Use at least 3 trials to see flips."}
    ]
    assert preview["canStart"] is True


async def test_fewer_than_20_cases_warns_of_no_verdict(backend: Backend) -> None:
    setup = await _setup(backend, cases=12)
    preview = await _preview(backend, setup)
    assert preview["warnings"] == [
        {
            "code": "NO_VERDICT",
            "message": "This run gives no verdict: a verdict needs at least 20 cases, "
            "and this split has 12.",
        }
    ]
    assert preview["canStart"] is True


async def test_a_holdout_split_warns_that_each_look_weakens_it(backend: Backend) -> None:
    setup = await _setup(backend, cases=5, holdout_cases=20)
    preview = await _preview(backend, setup, split="HOLDOUT")
    assert _codes(preview["warnings"]) == ["HOLDOUT_LOOKS"]
    assert (
        "each look at the holdout makes it a weaker test — 0 looks so far"
        in (preview["warnings"][0]["message"])
    )
    assert (preview["split"], preview["caseCount"]) == ("HOLDOUT", 20)


async def test_leaving_cases_out_is_shown_with_the_coverage(backend: Backend) -> None:
    cases = comparison_cases(24)
    cases[5]["input"] = {"other": "x"}
    setup = await _setup(backend, case_list=cases)
    preview = await _preview(backend, setup)
    assert preview["variables"][0]["text"] == "question ← input.question · found in 23 of 24 cases"
    assert (preview["caseCount"], preview["leftOutCount"]) == (23, 1)
    assert _codes(preview["warnings"]) == ["CASES_LEFT_OUT"]
    assert "'q-005'" in preview["warnings"][0]["message"]
    assert preview["totalCalls"] == 23 * 3 * 2


async def test_a_viewer_sees_the_figures_but_cannot_start(backend: Backend) -> None:
    setup = await _setup(backend, cases=20)
    viewer = await _preview(backend, setup, role=Role.VIEWER)
    assert viewer["totalCalls"] == 120
    assert viewer["canStart"] is False
    assert viewer["blockers"] == [
        {
            "code": "ROLE_TOO_LOW",
            "message": "Your role can read comparisons. A member can run them.",
        }
    ]
    for role in (Role.MEMBER, Role.ADMIN, Role.OWNER):
        assert (await _preview(backend, setup, role=role))["canStart"] is True


async def test_hosted_runs_off_blocks(backend: Backend) -> None:
    setup = await _setup(backend, cases=20)
    settings = await backend.gql(
        "mutation { updateWorkspaceSettings(input: {allowHostedRuns: false}) { id } }",
        token=setup.workspace.owner,
    )
    settings.ok()
    preview = await _preview(backend, setup)
    assert _codes(preview["blockers"]) == ["HOSTED_RUNS_OFF"]
    assert "Hosted runs are off" in preview["blockers"][0]["message"]
    assert preview["canStart"] is False


async def test_a_connection_that_is_not_ready_blocks(backend: Backend) -> None:
    # Nothing listens on port 9 of the loopback: the connection check finds it UNREACHABLE.
    setup = await _setup(
        backend, cases=20, connection_kind="OPENAI_COMPATIBLE", base_url="http://127.0.0.1:9/v1"
    )
    preview = await _preview(backend, setup)
    assert preview["connections"][0]["status"] == "UNREACHABLE"
    assert _codes(preview["blockers"]) == ["CONNECTION_NOT_READY"]
    assert "UNREACHABLE, not READY" in preview["blockers"][0]["message"]
    assert preview["canStart"] is False


BLOCKED: list[tuple[str, dict[str, Any], str]] = [
    ("same configuration", {"cohorts": "same"}, "SAME_CONFIGURATION"),
    ("empty split", {"split": "HOLDOUT"}, "EMPTY_SELECTION"),
    ("refused missing fields", {"missingFieldPolicy": "REFUSE"}, "MISSING_FIELDS"),
    ("over the call limit", {"trialsPerCase": 10, "cases": 1002}, "OVER_CALL_LIMIT"),
]


@pytest.mark.parametrize(("name", "fields", "code"), BLOCKED, ids=[b[0] for b in BLOCKED])
async def test_each_blocker_stops_the_start_and_the_preview_writes_nothing(
    backend: Backend, name: str, fields: dict[str, Any], code: str
) -> None:
    fields = dict(fields)
    cases = comparison_cases(int(fields.pop("cases", 20)))
    cases[3]["input"] = {"other": "no question"}
    setup = await _setup(backend, case_list=cases)
    if fields.pop("cohorts", None) == "same":
        fields["cohorts"] = [{"kind": "RELEASE", "releaseId": setup.release_ids[0]}] * 2
    preview = await _preview(backend, setup, **fields)
    assert _codes(preview["blockers"]) == [code], name
    assert preview["canStart"] is False
    assert await count_rows(backend, setup.workspace.id) == (0, 0)


async def test_over_the_limit_names_the_figures(backend: Backend) -> None:
    setup = await _setup(backend, cases=1001)
    preview = await _preview(backend, setup, trialsPerCase=10)
    assert preview["totalCalls"] == 20_020
    assert "20,020 model calls" in preview["blockers"][0]["message"]
    assert "at most 20,000" in preview["blockers"][0]["message"]


async def test_bad_input_is_refused_like_create(backend: Backend) -> None:
    setup = await _setup(backend, cases=3)
    other = await _setup(backend, cases=3)
    bad = await backend.gql(
        PREVIEW, {"input": setup.input(trialsPerCase=11)}, token=setup.workspace.tokens[Role.VIEWER]
    )
    assert bad.codes == ["VALIDATION_FAILED"]
    foreign = await backend.gql(
        PREVIEW,
        {"input": setup.input(datasetVersionId=other.dataset_version_id)},
        token=setup.workspace.tokens[Role.VIEWER],
    )
    assert foreign.codes == ["NOT_FOUND"]
    anonymous = await backend.gql(PREVIEW, {"input": setup.input()})
    assert anonymous.codes == ["UNAUTHENTICATED"]
