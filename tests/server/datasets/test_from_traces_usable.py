"""A version made from traces is usable at once: a comparison runs on it (its turns spliced into
the prompt), and the SDK evaluates a task over it."""

from __future__ import annotations

from typing import Any

import shipwise

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.workspaces.roles import Role
from tests.sdk.helpers import run_items
from tests.server.comparisons.documents import CREATE, GET, START
from tests.server.datasets.traces_api import create, post_chats

QUESTIONS = [f"Where is order {n}?" for n in range(6)]


async def test_a_comparison_runs_on_a_version_made_from_traces(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, cases=2, prompt_texts=["{{ turns }}", "{{ turns }}"]
    )
    await post_chats(backend, token, QUESTIONS)
    made = (await create(backend, token, name="prod", sample={"size": 4, "seed": 3})).ok()
    version = made["createDatasetFromTraces"]["version"]
    created = await backend.gql(
        CREATE,
        {"input": setup.input(datasetVersionId=version["id"], trialsPerCase=1)},
        token=token,
    )
    comparison = created.ok()["createComparison"]
    assert comparison["caseCount"] == 4
    assert comparison["datasetVersion"] == {"id": version["id"], "number": 1}
    (await backend.gql(START, {"id": comparison["id"]}, token=token)).ok()

    async def status() -> Any:
        return (await backend.gql(GET, {"id": comparison["id"]}, token=token)).ok()["comparison"]

    done = await eventually(status, until=lambda c: c["status"] == "DONE", timeout=60)
    assert done["progress"]["doneCalls"] == 8 and done["progress"]["failedCalls"] == 0


async def test_the_sdk_evaluates_a_task_over_a_version_made_from_traces(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await post_chats(backend, token, QUESTIONS, extra={"shipwise.expected": "shipped"})
    made = await create(
        backend, token, name="prod", sample={"size": 5, "seed": 1}, expectedFrom="ATTRIBUTE"
    )
    made.ok()
    seen: list[Any] = []

    def task(turns: list[dict[str, str]]) -> str:
        seen.append(turns)
        return "It has shipped."

    def correct(_input: Any, output: Any, expected: Any) -> bool:
        return str(expected) in str(output)

    client = shipwise.Client(url=backend.base_url, token=token)
    result = await client.aevaluate(
        task, "prod", "from traces", scorers={"correct": correct}, baseline=None, progress=False
    )
    assert (result.item_count, result.failed_trials) == (5, 0)
    assert all(turns[-1]["content"] in QUESTIONS for turns in seen)
    _, items = await run_items(backend, token, result.run_id)
    assert all(item["trials"][0]["passed"] for item in items)
