"""`shipwise comparison create | preview | start | status | cancel`, run as a user runs them,
against a served backend."""

from __future__ import annotations

import io
import json

from sqlalchemy import update

from bench.kit.factories import ComparisonSetup, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import closed_base_url
from server.cli.client import ApiClient
from server.cli.commands.progress_watch import ProgressBar, follow
from server.comparisons.models import Comparison, Trial, TrialState
from server.workspaces.models import AmbiguousOutcomes, Workspace
from server.workspaces.roles import Role
from tests.server.cli.invoke import Done, shipwise
from tests.server.comparisons.documents import GET, START


async def comparison(backend: Backend, token: str, *args: str, env_auth: bool = False) -> Done:
    auth = [] if env_auth else ["--url", backend.base_url, "--token", token]
    env = {"SHIPWISE_URL": backend.base_url, "SHIPWISE_TOKEN": token} if env_auth else None
    return await shipwise("comparison", *args, *auth, env=env)


def cohort_flags(setup: ComparisonSetup) -> list[str]:
    """The candidate in the API's shape, the baseline in seed 000's."""
    candidate = {"kind": "RELEASE", "releaseId": setup.release_ids[0], "label": "new prompt"}
    baseline = {"cohort_kind": "release", "release_id": setup.release_ids[1]}
    return ["--cohort-json", json.dumps(candidate), "--cohort-json", json.dumps(baseline)]


async def _setup(backend: Backend, cases: int = 6) -> tuple[str, ComparisonSetup]:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=cases)
    return ws.tokens[Role.MEMBER], setup


async def _create(backend: Backend, token: str, setup: ComparisonSetup, *extra: str) -> str:
    done = await comparison(
        backend, token, "create", "--dataset", setup.dataset_id, *cohort_flags(setup), *extra
    )
    assert done.code == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


async def _read(backend: Backend, token: str, comparison_id: str) -> dict[str, object]:
    result = await backend.gql(GET, {"id": comparison_id}, token=token)
    found: dict[str, object] = result.ok()["comparison"]
    return found


async def test_create_builds_the_input_from_its_flags(backend: Backend) -> None:
    token, setup = await _setup(backend)
    comparison_id = await _create(
        backend,
        token,
        setup,
        "--trials",
        "2",
        "--checks-json",
        '[{"kind": "EXACT_MATCH"}]',
        "--budget-cents",
        "12.5",
        "--experiment",
        "nightly prompts",
        "--label",
        "prompt v2",
    )
    found = await _read(backend, token, comparison_id)
    assert found["status"] == "SETUP"
    assert found["trialsPerCase"] == 2
    assert found["checks"] == [{"kind": "EXACT_MATCH"}]
    assert found["budgetCapCents"] == 12.5
    assert found["label"] == "prompt v2"
    assert found["experiment"]["name"] == "nightly prompts"  # type: ignore[index]
    cohorts = found["cohorts"]
    assert [(c["releaseId"], c["isCandidate"]) for c in cohorts] == [  # type: ignore[attr-defined]
        (setup.release_ids[0], True),
        (setup.release_ids[1], False),
    ]
    assert cohorts[0]["label"] == "new prompt"  # type: ignore[index]

    # The experiment is found by name the second time, not created again.
    again = await _create(backend, token, setup, "--experiment", "nightly prompts")
    assert (await _read(backend, token, again))["experiment"] == found["experiment"]


async def test_bad_flags_exit_2_and_create_nothing(backend: Backend) -> None:
    token, setup = await _setup(backend)
    one = ["--cohort-json", json.dumps({"kind": "RELEASE", "releaseId": setup.release_ids[0]})]
    cases = [
        (["--dataset", setup.dataset_id, *one], "at least two --cohort-json"),
        (["--dataset", setup.dataset_id, *one, "--cohort-json", "{nope"], "not valid JSON"),
        ([*cohort_flags(setup)], "--dataset"),
        (
            ["--dataset", setup.dataset_id, *one, "--cohort-json", '{"kind": "RELEASE"}'],
            "VALIDATION_FAILED",
        ),
    ]
    for args, message in cases:
        done = await comparison(backend, token, "create", *args)
        assert done.code == 2, (args, done.stdout)
        assert message in done.stderr, done.stderr
    listing = await backend.gql("{ comparisons { totalCount } }", token=token)
    assert listing.ok()["comparisons"]["totalCount"] == 0


async def test_preview_reports_calls_warnings_and_whether_it_can_start(backend: Backend) -> None:
    token, setup = await _setup(backend)
    flags = ["--dataset", setup.dataset_id, *cohort_flags(setup), "--trials", "1"]
    done = await comparison(backend, token, "preview", *flags)
    assert done.code == 0, done.stderr
    assert "Up to 12 model calls" in done.stdout  # 6 cases × 1 trial × 2 cohorts
    assert "cohort 1 (candidate) new prompt: 6 calls" in done.stdout
    assert "Use at least 3 trials to see flips" in done.stdout
    assert done.stdout.strip().endswith("can start")

    as_json = await comparison(backend, token, "preview", *flags, "--json")
    assert json.loads(as_json.stdout)["totalCalls"] == 12


async def test_preview_exits_1_when_the_comparison_cannot_start(backend: Backend) -> None:
    _, setup = await _setup(backend)
    viewer = setup.workspace.tokens[Role.VIEWER]
    done = await comparison(
        backend, viewer, "preview", "--dataset", setup.dataset_id, *cohort_flags(setup)
    )
    assert done.code == 1, done.stderr
    assert "blocked:" in done.stdout
    assert done.stdout.strip().endswith("cannot start")


async def test_start_wait_follows_the_subscription_to_done(backend: Backend) -> None:
    token, setup = await _setup(backend)
    comparison_id = await _create(backend, token, setup, "--trials", "1")
    done = await comparison(backend, token, "start", comparison_id, "--wait", env_auth=True)
    assert done.code == 0, done.stderr
    assert f"comparison {comparison_id}: Done\n" in done.stdout  # in words, as the portal
    assert "[" + "#" * 30 + "] 100.0%  12/12 calls" in done.stderr
    assert "polling" not in done.stderr  # the bar was fed by the subscription
    assert "pass rate" in done.stdout
    # Without --gate too, `start --wait` waits for the decision and prints its sentence
    # (6 cases: under the 20 a decision needs).
    assert "decision: No decision for new prompt: " in done.stdout  # its sentence, in words
    assert "at least 20 usable cases, and this run has 6" in done.stdout
    assert (await _read(backend, token, comparison_id))["status"] == "DONE"

    status = await comparison(backend, token, "status", comparison_id, "--json")
    assert status.code == 0
    assert json.loads(status.stdout)["progress"]["doneCalls"] == 12

    again = await comparison(backend, token, "start", comparison_id)
    assert again.code == 2
    assert "CONFLICT" in again.stderr


async def test_start_wait_exits_1_when_the_comparison_fails(backend: Backend) -> None:
    token, setup = await _setup(backend)
    comparison_id = await _create(backend, token, setup, "--trials", "1")
    # What a dispatcher killed mid-call leaves: an admitted trial without an outcome, which
    # the next delivery must not re-send; under FAIL_RUN the comparison ends FAILED.
    async with backend.sessionmaker() as session, session.begin():
        workspace_id = await session.scalar(
            Comparison.__table__.select()
            .with_only_columns(Comparison.workspace_id)
            .where(Comparison.id == comparison_id)
        )
        await session.execute(
            update(Workspace)
            .where(Workspace.id == workspace_id)
            .values(ambiguous_outcomes=AmbiguousOutcomes.FAIL_RUN)
        )
        session.add(
            Trial(
                comparison_id=comparison_id,
                case_ordinal=0,
                cohort_index=0,
                trial_index=0,
                connection_id=setup.connection_id,
                state=TrialState.ADMITTED,
                delivery_id="dlv_crashed",
                lease_token=0,
            )
        )
    done = await comparison(backend, token, "start", comparison_id, "--wait")
    assert done.code == 1, (done.stdout, done.stderr)
    assert f"comparison {comparison_id}: Failed error" in done.stdout
    assert "error comparison_dispatch_outcome_ambiguous" in done.stdout


async def test_cancel_and_status(backend: Backend) -> None:
    token, setup = await _setup(backend)
    comparison_id = await _create(backend, token, setup)
    cancelled = await comparison(backend, token, "cancel", comparison_id)
    assert cancelled.code == 0, cancelled.stderr
    assert f"comparison {comparison_id}: Cancelled" in cancelled.stdout
    status = await comparison(backend, token, "status", comparison_id)
    assert status.code == 0
    assert f"comparison {comparison_id}: Cancelled" in status.stdout

    other = await make_workspace(backend.sessionmaker, name="other")
    hidden = await comparison(backend, other.owner, "status", comparison_id)
    assert hidden.code == 2
    assert "NOT_FOUND" in hidden.stderr
    refused = await comparison(backend, "sw_not_a_token", "status", comparison_id)
    assert refused.code == 2
    assert "refused the token" in refused.stderr


async def test_without_a_websocket_the_wait_polls_to_the_end(backend: Backend) -> None:
    token, setup = await _setup(backend)
    comparison_id = await _create(backend, token, setup, "--trials", "1")
    (await backend.gql(START, {"id": comparison_id}, token=token)).ok()
    out = io.StringIO()
    with ApiClient(backend.base_url, token) as client:
        last = await follow(
            url=closed_base_url().removesuffix("/v1"),  # nothing accepts the websocket there
            token=token,
            client=client,
            comparison_id=comparison_id,
            bar=ProgressBar(out),
        )
    assert last["status"] == "DONE"
    assert last["doneCalls"] == 12
    assert "polling every second" in out.getvalue()
    assert "100.0%" in out.getvalue()
