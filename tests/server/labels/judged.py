"""A comparison graded by a scripted LLM judge with known error rates, biased toward the
candidate's phrasing, through the fake OpenAI-compatible provider.

The candidate's answers end in "!" (its style). The judge decides each answer from the
reference and a fixed pseudo-random draw per (style, reference): it passes a right answer
with probability `sensitivity` and a wrong one with probability 1 − `specificity`, with
rates that differ by style, so it is lenient to the candidate.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.kit.factories import WorkspaceFixture, make_judge, make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.scenarios import finalized, scripted_setup
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_KEY

CANDIDATE_STYLE = "!"
SENSITIVITY = {CANDIDATE_STYLE: 0.95, "": 0.80}
SPECIFICITY = {CANDIDATE_STYLE: 0.50, "": 0.90}


def _draw(style: str, reference: str) -> float:
    digest = hashlib.sha256(f"{style}|{reference}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def judge_passes(reference: str, answer: str) -> bool:
    """The scripted judge's grade of `answer` (what the fake replies, and the test's key)."""
    style = CANDIDATE_STYLE if answer.endswith(CANDIDATE_STYLE) else ""
    right = answer.removesuffix(CANDIDATE_STYLE).strip() == reference.strip()
    draw = _draw(style, reference)
    return draw < SENSITIVITY[style] if right else draw >= SPECIFICITY[style]


def judge_reply(body: dict[str, Any]) -> str:
    text = body["messages"][-1]["content"]
    reference = text.split("Reference answer:\n", 1)[1].split("\n\n", 1)[0]
    answer = text.split("Answer to grade:\n", 1)[1]
    return json.dumps({"grade": "PASS" if judge_passes(reference, answer) else "FAIL"})


@dataclass
class Judged:
    backend: Backend
    ws: WorkspaceFixture
    comparison_id: str
    comparison: dict[str, Any]
    truth: list[list[bool]]
    """Per cohort, per case: whether the (one) trial's answer is right."""
    judged: list[list[bool]]
    """Per cohort, per case: the judge's grade of it."""
    check_key: str

    def item(self, case: int) -> str:
        return f"q-{case:03d}"

    async def gql(
        self, query: str, variables: dict[str, Any] | None = None, *, role: Role = Role.MEMBER
    ) -> Any:
        return await self.backend.gql(query, variables, token=self.ws.tokens[role])


def truth_tensor(cases: int, rates: tuple[float, float], seed: int) -> list[list[bool]]:
    """Paired truths: one difficulty per case, a cohort right below its rate."""
    difficulty = np.random.default_rng(seed).random(cases)
    return [[bool(d < rate) for d in difficulty] for rate in rates]


async def judged_comparison(
    backend: Backend,
    fake: FakeOpenAI,
    *,
    cases: int = 60,
    rates: tuple[float, float] = (0.55, 0.65),
    seed: int = 7,
    **fields: Any,
) -> Judged:
    """A candidate truly worse than its baseline, which the judge makes look better."""
    fake.behaviour = Behaviour(reply=judge_reply)
    ws = await make_workspace(backend.sessionmaker)
    truth = truth_tensor(cases, rates, seed)
    tensor = [["P" if right else "F" for right in cohort] for cohort in truth]
    setup = await scripted_setup(backend.sessionmaker, ws, tensor, styles=[CANDIDATE_STYLE, ""])
    judge = await make_judge(
        backend.sessionmaker,
        ws,
        rubric="The answer equals the reference answer.",
        kind="OPENAI_COMPATIBLE",
        secret_box=backend.state.secret_box,
        base_url=fake.base_url,
        api_key=PROVIDER_KEY,
    )
    comparison_id, comparison = await finalized(
        backend, setup, trialsPerCase=1, checks=[judge.check()], **fields
    )
    references = [str(2 * i) for i in range(cases)]
    styles = [CANDIDATE_STYLE, ""]
    judged = [
        [
            judge_passes(ref, (ref if right else "I am not sure.") + styles[c])
            for ref, right in zip(references, truth[c], strict=True)
        ]
        for c in range(2)
    ]
    key = f"{judge.rubric_version_id}/{judge.config_version_id}"
    return Judged(backend, ws, comparison_id, comparison, truth, judged, key)
