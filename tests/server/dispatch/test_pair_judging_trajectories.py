"""A hosted comparison's pairwise judge sees each side's trajectory as evidence, as the run
diff's judge does (server/dispatch/pair_judging.py, server/judges/pair_evidence.py): the one
model call with the tool calls it asked for and their arguments, tokens and turns, at most
32 KiB a side with the cut said. The fake judge on 127.0.0.1 records every prompt."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.fakes.judge_server import FakeJudge
from tests.server.run_pairs.api import judge_versions
from tests.server.run_pairs.test_trajectory_evidence import CUT, evidence, user_prompt

CREATE = "mutation($i: CreateComparisonInput!) { createComparison(input: $i) { id } }"
START = """mutation($id: ID!) { startComparison(id: $id, background: false) {
  status stopReason
} }"""
LONG = "y" * 40_000
"""Tool-call arguments longer than the evidence's 32 KiB bound."""


def script() -> dict[str, Any]:
    """Case q-000: the candidate (model-0) refunds, the baseline looks the order up; case
    q-001: the candidate asks for a tool with long arguments."""
    return {
        "q-000": {
            "models": {
                "model-0": {
                    "output": "Refunded. quality=4",
                    "toolCalls": [{"name": "refund_order", "arguments": {"order": "A-7"}}],
                },
                "model-1": {
                    "output": "Looked it up. quality=3",
                    "toolCalls": [{"name": "lookup_order", "arguments": {"order": "A-7"}}],
                },
            }
        },
        "q-001": {
            "models": {
                "model-0": {
                    "output": "Uploaded. quality=3",
                    "toolCalls": [{"name": "upload", "arguments": {"blob": LONG}}],
                },
                "model-1": "Short. quality=3",
            }
        },
    }


async def test_the_hosted_judge_sees_each_sides_trajectory_bounded(
    backend: Backend, judge: FakeJudge
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, cases=2, simulation=Simulation(script=script())
    )
    rubric, config = await judge_versions(backend, ws, judge)
    token = ws.tokens[Role.MEMBER]
    spec = setup.input(
        trialsPerCase=1,
        pairwise={"rubricVersionId": rubric, "judgeModelConfigVersionId": config},
    )
    created = (await backend.gql(CREATE, {"i": spec}, token=token)).ok()
    comparison_id = created["createComparison"]["id"]
    ended = (await backend.gql(START, {"id": comparison_id}, token=token)).ok()["startComparison"]
    assert ended["status"] == "DONE" and ended["stopReason"] == "COMPLETED", ended

    prompts = [user_prompt(r) for r in judge.requests if r.path.endswith("/chat/completions")]
    assert len(prompts) == 4, "two pairs, each judged in both orders"
    tools = [p for p in prompts if "refund_order" in p]
    assert len(tools) == 2
    for prompt in tools:
        sides = {evidence(prompt, "A"), evidence(prompt, "B")}
        candidate = next(s for s in sides if "refund_order" in s)
        baseline = next(s for s in sides if "lookup_order" in s)
        assert 'asks tool refund_order arguments: {"order": "A-7"}' in candidate
        assert 'asks tool lookup_order arguments: {"order": "A-7"}' in baseline
        for side in (candidate, baseline):
            assert side.startswith("Metrics: ") and "turns=1" in side and "toolCalls=1" in side
            assert "[1] LLM chat" in side and CUT not in side
        assert "model-0" not in prompt and "model-1" not in prompt  # neutral names only

    long = [p for p in prompts if "upload" in p]
    assert len(long) == 2
    for prompt in long:
        cut = next(s for s in (evidence(prompt, "A"), evidence(prompt, "B")) if "yyyy" in s)
        assert cut.endswith(CUT) and len(cut.encode("utf-8")) <= 32 * 1024
        assert LONG not in cut
