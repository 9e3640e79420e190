""" "Add to dataset" (`addTraceToDataset`): one trace as a case of the dataset's open version,
with a typed `expected`; the version is opened when there is none."""

from __future__ import annotations

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.datasets.api import create_dataset, open_version, seal
from tests.server.datasets.traces_api import ADD, cases_of, post_chats


async def test_traces_join_the_open_version_with_their_expected_answers(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    first, second = await post_chats(backend, token, ["Where is order 7?", "Mail me: a@b.io"])
    dataset_id = await create_dataset(backend, token, "picked")

    opened = (
        await backend.gql(ADD, {"t": first, "d": dataset_id, "e": "Shipped."}, token=token)
    ).ok()["addTraceToDataset"]
    assert (opened["state"], opened["caseCount"], opened["number"]) == ("OPEN", 1, 1)
    added = (
        await backend.gql(ADD, {"t": second.upper(), "d": dataset_id, "r": ["EMAIL"]}, token=token)
    ).ok()["addTraceToDataset"]
    assert (added["id"], added["caseCount"]) == (opened["id"], 2)
    cases = await cases_of(backend, token, opened["id"])
    assert cases[0] == {
        "datasetItemId": first,
        "input": [{"role": "user", "content": "Where is order 7?"}],
        "expected": "Shipped.",
        "split": "DEV",
        "tags": [],
        "metadata": {"sourceTraceId": first},
    }
    assert cases[1]["input"] == [{"role": "user", "content": "Mail me: [email]"}]
    assert cases[1]["expected"] is None

    again = await backend.gql(ADD, {"t": first, "d": dataset_id}, token=token)
    assert again.codes == ["CONFLICT"]
    assert again.errors[0]["extensions"]["field"] == "traceId"

    # Once sealed, the next trace opens version 2.
    (await seal(backend, token, opened["id"])).ok()
    later = (await backend.gql(ADD, {"t": first, "d": dataset_id}, token=token)).ok()
    assert later["addTraceToDataset"]["number"] == 2

    viewer = await backend.gql(ADD, {"t": first, "d": dataset_id}, token=ws.tokens[Role.VIEWER])
    assert viewer.codes == ["FORBIDDEN"]
    unknown = await backend.gql(ADD, {"t": "0" * 32, "d": dataset_id}, token=token)
    assert unknown.codes == ["NOT_FOUND"]
    assert unknown.errors[0]["extensions"]["field"] == "traceId"
    other = await create_dataset(backend, token, "with an open version")
    version = await open_version(backend, token, other)
    joined = (await backend.gql(ADD, {"t": first, "d": other}, token=token)).ok()
    assert joined["addTraceToDataset"]["id"] == version
