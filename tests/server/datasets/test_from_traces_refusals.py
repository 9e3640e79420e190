"""Bad input to the datasets-from-traces mutations is VALIDATION_FAILED naming the field;
roles and another workspace's ids are refused as everywhere."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.datasets.api import create_dataset
from tests.server.datasets.traces_api import ADD, create, post_chats, preview


async def test_bad_input_names_the_field(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await post_chats(backend, token, ["hello"])
    dataset_id = await create_dataset(backend, token, "kept")
    bad: list[tuple[dict[str, Any], str]] = [
        ({"sample": {"size": 0}, "name": "x"}, "sample.size"),
        ({"sample": {"size": 100_001}, "name": "x"}, "sample.size"),
        ({"sample": {"size": 5}}, "datasetId"),
        ({"sample": {"size": 5}, "name": "x", "datasetId": dataset_id}, "datasetId"),
        ({"sample": {"size": 5, "stratifyBy": "ATTRIBUTE"}, "name": "x"}, "sample.attribute"),
        ({"sample": {"size": 5, "attribute": "a"}, "name": "x"}, "sample.attribute"),
        ({"sample": {"size": 5}, "name": "x", "expectedAttribute": "a"}, "expectedAttribute"),
        ({"sample": {"size": 5}, "name": "x", "redactPatterns": ["(x"]}, "redactPatterns[0]"),
        ({"sample": {"size": 5}, "name": "x", "filter": {"service": "none"}}, "filter"),
        ({"sample": {"size": 5}, "name": "  "}, "name"),
    ]
    for fields, field in bad:
        answer = await create(backend, token, **fields)
        assert answer.codes == ["VALIDATION_FAILED"], (fields, answer.errors)
        assert answer.errors[0]["extensions"]["field"] == field, (fields, answer.errors)
        assert "Traceback" not in answer.errors[0]["message"]
    taken = await create(backend, token, sample={"size": 5}, name="kept")
    assert taken.codes == ["CONFLICT"]
    missing = await preview(backend, token, sample={"size": 5}, datasetId="ds_unknown")
    assert missing.codes == ["NOT_FOUND"]
    assert missing.errors[0]["extensions"]["field"] == "datasetId"


async def test_a_viewer_previews_but_does_not_create(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    await post_chats(backend, ws.tokens[Role.MEMBER], ["hello"])
    viewer = ws.tokens[Role.VIEWER]
    shown = (await preview(backend, viewer, sample={"size": 5})).ok()
    assert shown["previewDatasetFromTraces"]["taken"] == 1
    assert (await create(backend, viewer, sample={"size": 5}, name="v")).codes == ["FORBIDDEN"]


async def test_another_workspaces_traces_are_never_matched(backend: Backend) -> None:
    mine = await make_workspace(backend.sessionmaker, name="mine")
    theirs = await make_workspace(backend.sessionmaker, name="theirs")
    await post_chats(backend, theirs.tokens[Role.MEMBER], ["their secret"])
    await post_chats(backend, mine.tokens[Role.MEMBER], ["mine"])
    found = (await preview(backend, mine.tokens[Role.MEMBER], sample={"size": 10})).ok()[
        "previewDatasetFromTraces"
    ]
    assert (found["matched"], found["taken"]) == (1, 1)
    (their_trace,) = await post_chats(backend, theirs.tokens[Role.MEMBER], ["another"])
    dataset_id = await create_dataset(backend, mine.tokens[Role.MEMBER], "mine")
    answer = await backend.gql(
        ADD, {"t": their_trace, "d": dataset_id}, token=mine.tokens[Role.MEMBER]
    )
    assert answer.codes == ["NOT_FOUND"]
    assert answer.errors[0]["extensions"]["field"] == "traceId"
