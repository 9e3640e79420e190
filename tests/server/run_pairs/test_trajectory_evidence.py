"""`pairwiseComparison` gives the judge each side's trajectory as evidence (docs/domain.md,
"Trajectories in runs"): its steps, tool calls with their arguments and metrics, at most 32
KiB a side with the cut said in the prompt. The fake judge on 127.0.0.1 records every prompt."""

from __future__ import annotations

import re
from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.fakes.judge_server import FakeJudge
from tests.server.run_pairs.api import create, judge_versions, wait_done
from tests.server.runs.api import experiment, import_run

CUT = "[trajectory cut at 32 KiB]"
HUGE = "x" * 100_000


def steps(tool: str, result: str) -> list[dict[str, Any]]:
    return [
        {
            "kind": "LLM",
            "name": "chat gpt-t",
            "model": "gpt-t",
            "inputTokens": 50,
            "outputTokens": 7,
            "outputMessages": [
                {
                    "role": "assistant",
                    "content": None,
                    "toolCalls": [{"id": "c1", "name": tool, "arguments": {"order": "A-7"}}],
                }
            ],
        },
        {"kind": "TOOL", "name": f"execute_tool {tool}", "toolName": tool, "toolCallId": "c1",
         "arguments": {"order": "A-7"}, "result": result},
    ]  # fmt: skip


def items(tool: str, result: str) -> list[dict[str, Any]]:
    return [
        {
            "datasetItemId": "i0",
            "input": "Where is order A-7?",
            "trials": [{"output": "It shipped. quality=3", "trajectory": steps(tool, result)}],
        }
    ]


def user_prompt(request: Any) -> str:
    return str(request.body["messages"][-1]["content"])


def evidence(prompt: str, side: str) -> str:
    found = re.search(
        rf"=== Trajectory of {side} \(evidence: the steps the agent took\) ===\n(.*?)\n\n===",
        prompt,
        re.DOTALL,
    )
    assert found is not None, prompt[:2000]
    return found.group(1)


async def test_the_judge_sees_each_sides_trajectory_cut_at_32_kib(
    backend: Backend, judge: FakeJudge
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    baseline = await import_run(backend, ws.owner, exp, items("lookup_order", "shipped"), key="b")
    candidate = await import_run(backend, ws.owner, exp, items("refund_order", HUGE), key="c")
    rubric, config = await judge_versions(backend, ws, judge)
    token = ws.tokens[Role.MEMBER]
    job = (await create(backend, token, candidate, baseline, rubric, config)).ok()
    done = await wait_done(backend, ws.tokens[Role.VIEWER], job["pairwiseComparison"]["id"])
    assert done["status"] == "DONE", done

    prompts = [user_prompt(r) for r in judge.requests if r.path.endswith("/chat/completions")]
    assert len(prompts) == 2, "one pair, judged in both orders"
    for prompt in prompts:
        sides = {evidence(prompt, "A"), evidence(prompt, "B")}
        small = next(s for s in sides if "lookup_order" in s)
        big = next(s for s in sides if "refund_order" in s)
        assert small != big
        # Steps, the tool calls with their arguments, and the metrics of each side.
        assert 'tool lookup_order arguments: {"order": "A-7"}' in small
        assert 'asks tool refund_order arguments: {"order": "A-7"}' in big
        assert "tokens=57" in small and "turns=1" in small and "toolCalls=1" in small
        assert "result: shipped" in small and CUT not in small
        # The huge tool result is cut, within 32 KiB, and the cut is said.
        assert big.endswith(CUT)
        assert len(big.encode("utf-8")) <= 32 * 1024
        assert HUGE not in prompt
