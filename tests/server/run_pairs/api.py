"""GraphQL documents and helpers for the pairwise tests."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import WorkspaceFixture, make_judge
from bench.kit.harness import Backend, GraphQLResult
from bench.kit.waiting import API_POLL_SECONDS, eventually
from tests.conftest import PROVIDER_KEY
from tests.fakes.judge_server import FakeJudge

RESULT_FIELDS = """
  note partial winRate tieRate lossRate meanScore low high pValue orderDisagreementRate
  judgedPairs totalPairs judgeModel simulated regression
  failures { datasetItemId position trialIndex errorClass retryable attempts message model
             otherMessages }
  mcnemar { n improved regressed pValue exactPValue }
  metricDeltas { name delta low high highVariance baselineMean candidateMean n }
"""
JOB_FIELDS = (
    "id status judgedPairs totalPairs errorCode spentCents candidateRunId baselineRunId "
    "result {" + RESULT_FIELDS + "}"
)
CREATE = (
    """mutation($c: ID!, $b: ID!, $r: ID!, $j: ID!) {
  pairwiseComparison(candidateRunId: $c, baselineRunId: $b, rubricVersionId: $r,
                     judgeModelConfigVersionId: $j) {"""
    + JOB_FIELDS
    + "} }"
)
JOB = "query($id: ID!) { pairwiseJob(id: $id) {" + JOB_FIELDS + "} }"


async def judge_versions(
    backend: Backend, ws: WorkspaceFixture, judge: FakeJudge, *, simulated: bool = False
) -> tuple[str, str]:
    """A rubric and a judge MODEL_CONFIG on a connection to `judge`: their version ids."""
    fields: dict[str, Any] = {"name": "sim-judge"}
    if not simulated:
        fields = {
            "kind": "OPENAI_COMPATIBLE",
            "secret_box": backend.state.secret_box,
            "base_url": judge.base_url,
            "api_key": PROVIDER_KEY,
            "input_cents_per_million_tokens": 100_000.0,
            "output_cents_per_million_tokens": 100_000.0,
        }
    made = await make_judge(
        backend.sessionmaker, ws, rubric="The higher quality answer wins.", scale="SCORE_0_1",
        **fields,
    )  # fmt: skip
    return made.rubric_version_id, made.config_version_id


async def create(
    backend: Backend, token: str, candidate: str, baseline: str, rubric: str, config: str
) -> GraphQLResult:
    return await backend.gql(
        CREATE, {"c": candidate, "b": baseline, "r": rubric, "j": config}, token=token
    )


async def wait_done(backend: Backend, token: str, job_id: str, timeout: float = 60) -> Any:
    """Poll `pairwiseJob` until DONE or FAILED."""

    async def job() -> Any:
        return (await backend.gql(JOB, {"id": job_id}, token=token)).ok()["pairwiseJob"]

    return await eventually(
        job,
        until=lambda j: j["status"] in ("DONE", "FAILED"),
        timeout=timeout,
        interval=API_POLL_SECONDS,
        what="DONE",
    )
