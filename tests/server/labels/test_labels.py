"""`labelTrial`: MEMBER and up, one label per trial and labeller, audited, scoped."""

from __future__ import annotations

from sqlalchemy import func, select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.labels.models import TrialLabel
from server.workspaces.roles import Role
from tests.server.labels.api import AUDIT, CASE_LABELS, LABEL, case_labels, label, trial_ref
from tests.server.reports.api import finalized_comparison


async def _label_count(backend: Backend, comparison_id: str) -> int:
    async with backend.sessionmaker() as session:
        count = await session.scalar(
            select(func.count()).where(TrialLabel.target_id == comparison_id)
        )
    return int(count or 0)


async def test_a_label_is_kept_per_labeller_the_latest_replacing_theirs(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    trial = trial_ref(f.comparison_id, 0, "q-020")  # the candidate's failed answer
    # Read (and so keep: server/api/http/response_cache.py) the case pages before labelling.
    unlabelled = case_labels((await f.gql(CASE_LABELS, {"id": f.comparison_id})).ok())
    assert unlabelled[("q-020", 0, 0)] == []
    first = await label(backend, f.token(Role.MEMBER), trial, True, "  reads right to me ")
    assert first["trial"] == {**trial, "runId": None}
    assert (first["passed"], first["note"]) == (True, "reads right to me")
    assert first["labeller"] == {"id": f.ws.member_ids[Role.MEMBER], "name": "member"}
    assert first["judgePassed"] is None  # a CONTAINS check: no judge
    again = await label(backend, f.token(Role.MEMBER), trial, False)
    assert (again["passed"], again["note"]) == (False, None)
    await label(backend, f.token(Role.ADMIN), trial, True, "<b>ok</b>")
    assert await _label_count(backend, f.comparison_id) == 2  # one per labeller

    labels = case_labels((await f.gql(CASE_LABELS, {"id": f.comparison_id})).ok())
    on_trial = labels[("q-020", 0, 0)]
    assert [(x["labeller"]["name"], x["passed"], x["note"]) for x in on_trial] == [
        ("admin", True, "<b>ok</b>"),  # newest first; a note stays text
        ("member", False, None),
    ]
    assert on_trial[0]["trial"] == trial
    assert labels[("q-020", 1, 0)] == []  # the baseline's trial of the same case: none

    events = (await f.gql(AUDIT, role=Role.VIEWER)).ok()["auditEvents"]["edges"]
    nodes = [e["node"] for e in events]
    assert len(nodes) == 3
    assert {n["targetId"] for n in nodes} == {f.comparison_id}
    assert {n["targetType"] for n in nodes} == {"comparison"}
    assert nodes[0]["details"] == {
        "cohortIndex": 0,
        "datasetItemId": "q-020",
        "trialIndex": 0,
        "passed": True,
        "note": "<b>ok</b>",
    }


async def test_refusals_change_nothing(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    trial = trial_ref(f.comparison_id, 0, "q-001")
    variables = {"trial": trial, "passed": True}
    viewer = await f.gql(LABEL, variables, role=Role.VIEWER)
    assert viewer.codes == ["FORBIDDEN"]
    other = await make_workspace(backend.sessionmaker, name="other")
    foreign = await backend.gql(LABEL, variables, token=other.tokens[Role.OWNER])
    assert foreign.codes == ["NOT_FOUND"]
    for missing in (
        trial_ref(f.comparison_id, 0, "no-such-item"),
        trial_ref(f.comparison_id, 7, "q-001"),
        trial_ref(f.comparison_id, 0, "q-001", index=1),
        trial_ref("cmp_unknown", 0, "q-001"),
    ):
        result = await f.gql(LABEL, {"trial": missing, "passed": True})
        assert result.codes == ["NOT_FOUND"], missing
    both = await f.gql(LABEL, {"trial": {**trial, "runId": "run_x"}, "passed": True})
    assert both.codes == ["VALIDATION_FAILED"]
    neither = {k: v for k, v in trial.items() if k != "comparisonId"}
    assert (await f.gql(LABEL, {"trial": neither, "passed": True})).codes == ["VALIDATION_FAILED"]
    long_note = await f.gql(LABEL, {**variables, "note": "x" * 2001})
    assert long_note.codes == ["VALIDATION_FAILED"]
    assert await _label_count(backend, f.comparison_id) == 0
    assert (await f.gql(AUDIT)).ok()["auditEvents"]["edges"] == []  # the workspace's own
