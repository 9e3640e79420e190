"""`reviewQueue`: unlabelled trials in a seeded random order fixed at the first call."""

from __future__ import annotations

import re
from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.statements import counting_statements
from server.workspaces.roles import Role
from tests.server.labels.api import QUEUE, label
from tests.server.reports.api import finalized_comparison

PROGRESS = """
query($id: ID!) { comparison(id: $id) { reviewProgress { labelled graded } } }
"""

FIELDS = """
query { __type(name: "ReviewItem") { fields { name } } }
"""


def _keys(items: list[dict[str, Any]]) -> list[tuple[int, str, int]]:
    return [
        (i["trial"]["cohortIndex"], i["trial"]["datasetItemId"], i["trial"]["trialIndex"])
        for i in items
    ]


async def test_the_order_is_fixed_and_labelled_trials_leave_it(backend: Backend) -> None:
    f = await finalized_comparison(backend)

    async def queue(first: int | None = None) -> list[dict[str, Any]]:
        variables = {"id": f.comparison_id} | ({} if first is None else {"first": first})
        items: list[dict[str, Any]] = (await f.gql(QUEUE, variables)).ok()["reviewQueue"]
        return items

    everything = await queue(100)
    natural = [(c, f"q-{i:03d}", 0) for c in range(3) for i in range(24)]
    assert sorted(_keys(everything)) == sorted(natural)  # every graded trial, once
    assert _keys(everything) != natural  # in a random order
    assert _keys(await queue()) == _keys(everything)[:20]  # first: 20 by default, same order
    first_three = everything[:3]
    for item in first_three:
        await label(f.backend, f.token(Role.MEMBER), item["trial"], True)
    assert _keys(await queue(5)) == _keys(everything)[3:8]
    # Another labeller's label takes a trial out of everyone's queue.
    await label(f.backend, f.token(Role.ADMIN), everything[3]["trial"], False)
    assert _keys(await queue(1)) == _keys(everything)[4:5]

    async def progress() -> dict[str, int]:
        data = (await f.gql(PROGRESS, {"id": f.comparison_id})).ok()
        found: dict[str, int] = data["comparison"]["reviewProgress"]
        return found

    with counting_statements(f.backend) as seen:
        assert await progress() == {"labelled": 4, "graded": 72}
    # Counted by the database: a trial row read one by one held the API's loop for seconds
    # on a 900,000-trial comparison (bench/scale.py).
    trial_reads = [s for s in seen if re.search(r"\bFROM trial\b", s)]
    assert trial_reads and all("count(" in s for s in trial_reads), trial_reads
    await label(f.backend, f.token(Role.ADMIN), everything[0]["trial"], False)
    assert await progress() == {"labelled": 4, "graded": 72}  # a trial, however many labels

    item = everything[0]
    ordinal = int(item["trial"]["datasetItemId"].removeprefix("q-"))
    assert item["input"] == {"question": f"What is {ordinal:03d} + {ordinal:03d}?"}
    assert item["expected"] == str(2 * ordinal)
    assert item["output"] in (str(2 * ordinal), "I am not sure.")
    assert item["trial"]["comparisonId"] == f.comparison_id
    fields = (await f.gql(FIELDS)).ok()["__type"]["fields"]
    assert {x["name"] for x in fields} == {"trial", "input", "expected", "output"}


async def test_queue_refusals(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    variables = {"id": f.comparison_id, "first": 5}
    assert (await f.gql(QUEUE, variables, role=Role.VIEWER)).codes == ["FORBIDDEN"]
    other = await make_workspace(backend.sessionmaker, name="other")
    foreign = await backend.gql(QUEUE, variables, token=other.tokens[Role.OWNER])
    assert foreign.codes == ["NOT_FOUND"]
    for first in (0, 101):
        bad = await f.gql(QUEUE, {"id": f.comparison_id, "first": first})
        assert bad.codes == ["VALIDATION_FAILED"]
