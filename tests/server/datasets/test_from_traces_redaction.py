"""Redaction of cases made from traces: the built-in kinds, the request's patterns and the
workspace's `redactionPatterns`, counted in `redacted`."""

from __future__ import annotations

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.datasets.traces_api import cases_of, create, post_chats, preview

SETTINGS = (
    "mutation($p: [String!]) { updateWorkspaceSettings(input: {redactionPatterns: $p}) "
    "{ settings { redactionPatterns } } }"
)
TEXT = (
    "Mail ann.lee@example.co.uk or call +1 415-555-0100. Card 4111 1111 1111 1111, not "
    "4111 1111 1111 1112. Key sk-proj-abcdefghijklmnop1234 from 192.168.1.20 and 2001:db8::1. "
    "Ticket ORD-123456, order 12345678 on 2026-12-07."
)


async def test_each_kind_and_pattern_is_replaced_and_counted(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await post_chats(backend, token, [TEXT], extra={"shipwise.expected": "write to a@b.io"})
    kinds = ["EMAIL", "PHONE", "CARD_NUMBER", "API_KEY", "IP_ADDRESS"]
    set_by_admin = await backend.gql(SETTINGS, {"p": [r"ORD-\d{6}"]}, token=ws.tokens[Role.ADMIN])
    assert set_by_admin.ok()["updateWorkspaceSettings"]["settings"]["redactionPatterns"] == [
        r"ORD-\d{6}"
    ]
    made = (
        await create(
            backend, token, name="clean", sample={"size": 5}, redact=kinds,
            redactPatterns=[r"order \d+"], expectedFrom="ATTRIBUTE",
        )
    ).ok()["createDatasetFromTraces"]  # fmt: skip
    (case,) = await cases_of(backend, token, made["version"]["id"])
    text = case["input"][0]["content"]
    assert text == (
        "Mail [email] or call [phone]. Card [card], not 4111 1111 1111 1112. Key [api_key] "
        "from [ip] and [ip]. Ticket [redacted], [redacted] on 2026-12-07."
    )
    assert case["expected"] == "write to [email]"
    assert made["redacted"] == 9

    # Nothing asked: only the workspace's pattern applies.
    plain = (await preview(backend, token, sample={"size": 5})).ok()["previewDatasetFromTraces"]
    assert plain["redacted"] == 1


async def test_a_viewer_cannot_set_patterns_and_bad_ones_are_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    refused = await backend.gql(SETTINGS, {"p": ["x"]}, token=ws.tokens[Role.MEMBER])
    assert refused.codes == ["FORBIDDEN"]
    for patterns, field in (
        (["(unclosed"], "redactionPatterns[0]"),
        (["ok", "(a+)+$"], "redactionPatterns[1]"),
        (["a*"], "redactionPatterns[0]"),
        (["x" * 201], "redactionPatterns[0]"),
        ([f"p{n}" for n in range(21)], "redactionPatterns"),
    ):
        answer = await backend.gql(SETTINGS, {"p": patterns}, token=ws.tokens[Role.ADMIN])
        assert answer.codes == ["VALIDATION_FAILED"], patterns
        assert answer.errors[0]["extensions"]["field"] == field
