"""Request limits, coded GraphQL errors, and bad input that changes nothing."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import quote, urlsplit

import pytest
from sqlalchemy import func, select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.audit.models import AuditEvent
from server.workspaces.models import Member

DEPTH_ERROR = "exceeds maximum operation depth of 12"
OF_TYPE_ERROR = "exceeds maximum `ofType` nesting of 12"


def _nested_selection(depth: int) -> str:
    """`{ me { a { a { … id } } } }` with `depth` levels of selection sets."""
    body = "id"
    for _ in range(depth - 1):
        body = f"a {{ {body} }}"
    return f"{{ me {{ {body} }} }}"


def _of_types(levels: int, inner: str = "name") -> str:
    """`ofType { ofType { … name } }`, `levels` deep."""
    for _ in range(levels):
        inner = f"ofType {{ {inner} }}"
    return inner


def _introspection_ten_deep(inner: str) -> str:
    """Ten fields deep, about as deep as graphql-core's `MaxIntrospectionDepthRule` (at most
    two of `fields`, `inputFields`, `interfaces`, `possibleTypes` nested) lets introspection
    go without `ofType`; `inner` is selected on the `__Type` at the bottom."""
    return (
        "{ __schema { directives { args { type { fields { args { type { fields { args { type { "
        f"{inner} }} }} }} }} }} }} }} }} }} }} }}"
    )


@pytest.mark.parametrize("with_token", [True, False], ids=["token", "anonymous"])
async def test_deep_introspection_is_refused(backend: Backend, with_token: bool) -> None:
    token = (await make_workspace(backend.sessionmaker)).owner if with_token else None
    ten_deep = await backend.gql(_introspection_ten_deep("name"), token=token)
    assert ten_deep.ok()["__schema"]["directives"]
    for pairs in (7, 40):  # 15 and 81 fields deep
        chain = "fields { type { " * pairs + "name" + " } }" * pairs
        too_deep = await backend.gql(f'{{ __type(name: "Query") {{ {chain} }} }}', token=token)
        assert set(too_deep.codes) == {"VALIDATION_FAILED"} and too_deep.data is None
        assert any(DEPTH_ERROR in e["message"] for e in too_deep.errors)


@pytest.mark.parametrize("with_token", [True, False], ids=["token", "anonymous"])
async def test_of_type_nesting_has_a_limit_of_its_own(backend: Backend, with_token: bool) -> None:
    token = (await make_workspace(backend.sessionmaker)).owner if with_token else None
    deep_and_wrapped = await backend.gql(_introspection_ten_deep(_of_types(12)), token=token)
    assert deep_and_wrapped.ok()["__schema"]["directives"]
    at_limit = await backend.gql(f'{{ __type(name: "String") {{ {_of_types(12)} }} }}')
    assert at_limit.ok() == {"__type": {"ofType": None}}
    for levels in (13, 60):
        chain = await backend.gql(
            f'{{ __type(name: "String") {{ {_of_types(levels)} }} }}', token=token
        )
        assert chain.codes == ["VALIDATION_FAILED"] and chain.data is None
        assert [OF_TYPE_ERROR in e["message"] for e in chain.errors] == [True]
    both = await backend.gql("{ me { " + "a { " * 12 + _of_types(13) + " }" * 14, token=token)
    limits = {e["message"].split("' ", 1)[1] for e in both.errors if "'anonymous'" in e["message"]}
    assert limits == {DEPTH_ERROR, OF_TYPE_ERROR}


async def test_fragments_count_where_they_are_spread(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    fragment = "fragment T on Query { " + "a { " * 10 + "id" + " }" * 10 + " }"
    fits = await backend.gql(f"{{ me {{ a {{ ...T }} }} }} {fragment}", token=ws.owner)
    assert fits.errors and not any(DEPTH_ERROR in e["message"] for e in fits.errors)
    deeper = await backend.gql(f"{{ me {{ a {{ a {{ ...T }} }} }} }} {fragment}", token=ws.owner)
    assert set(deeper.codes) == {"VALIDATION_FAILED"}
    assert any(DEPTH_ERROR in e["message"] for e in deeper.errors)
    wrapper = "fragment W on __Type { " + _of_types(7) + " }"
    wrapped = f'{{ __type(name: "String") {{ {_of_types(5, "...W")} }} }} {wrapper}'
    assert (await backend.gql(wrapped)).ok() == {"__type": {"ofType": None}}
    rewrapped = f'{{ __type(name: "String") {{ {_of_types(6, "...W")} }} }} {wrapper}'
    assert OF_TYPE_ERROR in (await backend.gql(rewrapped)).errors[0]["message"]


async def test_a_query_deeper_than_twelve_is_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    too_deep = await backend.gql(_nested_selection(13), token=ws.owner)
    assert any(DEPTH_ERROR in e["message"] for e in too_deep.errors)
    assert set(too_deep.codes) == {"VALIDATION_FAILED"}
    at_limit = await backend.gql(_nested_selection(12), token=ws.owner)
    assert not any(DEPTH_ERROR in e["message"] for e in at_limit.errors)


async def test_more_than_fifty_aliases_are_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    fifty = "{ " + " ".join(f"a{i}: me {{ role }}" for i in range(50)) + " }"
    assert len((await backend.gql(fifty, token=ws.owner)).ok()) == 50
    fifty_one = "{ " + " ".join(f"a{i}: me {{ role }}" for i in range(51)) + " }"
    result = await backend.gql(fifty_one, token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.data is None


async def test_more_than_five_thousand_tokens_are_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    selection = (
        "me { role tokenId member { id name email role createdAt } workspace { id name "
        "createdAt settings { allowHostedRuns allowSelfSignOff maxRunningComparisons "
        "requestsPerMinutePerToken } tokens(first: 1) { totalCount pageInfo { hasNextPage "
        "endCursor } edges { cursor node { id name prefix memberId createdAt revokedAt } } } } }"
    )
    under = "{ " + " ".join(f"a{i}: {selection}" for i in range(50)) + " }"
    assert len((await backend.gql(under, token=ws.owner)).ok()) == 50
    over = "{ " + "__typename " * 5001 + "}"
    result = await backend.gql(over, token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"]
    assert "token" in result.errors[0]["message"].lower()


async def test_a_body_over_two_mebibytes_is_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    headers = {"Authorization": f"Bearer {ws.owner}", "Content-Type": "application/json"}

    def body(size: int) -> bytes:
        return json.dumps({"query": "{ me { role } }", "variables": {"pad": "x" * size}}).encode()

    fits = await backend.client.post(
        "/graphql", content=body(2 * 1024 * 1024 - 200), headers=headers
    )
    assert fits.status_code == 200 and fits.json()["data"]["me"]["role"] == "OWNER"
    over = await backend.client.post("/graphql", content=body(2 * 1024 * 1024), headers=headers)
    assert over.status_code == 413
    assert over.json()["errors"][0]["extensions"]["code"] == "VALIDATION_FAILED"


async def test_graphql_validation_errors_carry_a_code(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    unknown_field = await backend.gql("{ me { nope } }", token=ws.owner)
    assert unknown_field.codes == ["VALIDATION_FAILED"]
    syntax = await backend.gql("{ me { ", token=ws.owner)
    assert syntax.codes == ["VALIDATION_FAILED"]
    unauthenticated_bad = await backend.gql("{ nope }")
    assert unauthenticated_bad.codes == ["VALIDATION_FAILED"]


async def _state(backend: Backend, workspace_id: str) -> tuple[int, int]:
    async with backend.sessionmaker() as session:
        events = (
            await session.execute(
                select(func.count())
                .select_from(AuditEvent)
                .where(AuditEvent.workspace_id == workspace_id)
            )
        ).scalar_one()
        members = (
            await session.execute(
                select(func.count()).select_from(Member).where(Member.workspace_id == workspace_id)
            )
        ).scalar_one()
    return events, members


BAD_INPUT = [
    pytest.param(
        'mutation($r: Role!) { addMember(name: "x", role: $r) { id } }',
        {"r": "EMPEROR"},
        id="unknown-enum-variable",
    ),
    pytest.param(
        'mutation { addMember(name: "x", role: EMPEROR) { id } }', {}, id="unknown-enum-literal"
    ),
    pytest.param(
        "mutation($n: String!) { addMember(name: $n, role: VIEWER) { id } }",
        {"n": 42},
        id="wrong-type",
    ),
    pytest.param(
        "mutation($n: String!) { addMember(name: $n, role: VIEWER) { id } }",
        {"n": "x" * 5000},
        id="oversized-string",
    ),
    pytest.param(
        "mutation($n: String!) { addMember(name: $n, role: VIEWER) { id } }",
        {"n": "   "},
        id="blank-string",
    ),
    pytest.param(
        'mutation($e: String) { addMember(name: "x", role: VIEWER, email: $e) { id } }',
        {"e": "not-an-email"},
        id="bad-email",
    ),
    pytest.param(
        "mutation { updateWorkspaceSettings(input: {allowHostedRuns: false, "
        "maxRunningComparisons: 0}) { id } }",
        {},
        id="out-of-range-setting-with-valid-sibling",
    ),
    pytest.param(
        'mutation { updateWorkspaceSettings(input: {requestsPerMinutePerToken: "many"}) { id } }',
        {},
        id="wrong-type-in-input",
    ),
    pytest.param(
        'mutation { createToken(name: "' + "t" * 300 + '") { secret } }',
        {},
        id="oversized-token-name",
    ),
    pytest.param(
        "mutation { removeMember(memberId: 12) { id } }", {}, id="number-for-id-ok-but-unknown"
    ),
]


@pytest.mark.parametrize(("document", "variables"), BAD_INPUT)
async def test_bad_input_gets_a_code_and_writes_nothing(
    backend: Backend, document: str, variables: dict[str, object]
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    before = await _state(backend, ws.id)
    result = await backend.gql(document, variables, token=ws.owner)
    assert result.status == 200
    assert result.codes and set(result.codes) <= {"VALIDATION_FAILED", "NOT_FOUND"}
    assert result.data is None
    assert await _state(backend, ws.id) == before
    settings = (
        await backend.gql("{ workspace { settings { allowHostedRuns } } }", token=ws.owner)
    ).ok()
    assert settings["workspace"]["settings"]["allowHostedRuns"] is True
    assert "Traceback" not in json.dumps(result.body) and "SELECT" not in json.dumps(result.body)


class KeepAlive:
    """One HTTP/1.1 connection to the server, kept open across requests (no client pooling
    that would silently open a new one after a reset)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, base_url: str) -> KeepAlive:
        url = urlsplit(base_url)
        reader, writer = await asyncio.open_connection(url.hostname, url.port)
        return cls(reader, writer)

    async def request(
        self, method: str, target: str, body: bytes = b"", content_type: str | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        head = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1", "Accept: application/json"]
        if content_type is not None:
            head.append(f"Content-Type: {content_type}")
        if method != "GET":
            head.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await asyncio.wait_for(self.reader.readline(), 10)
        assert status_line, "the server closed the connection"
        headers: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        payload = await self.reader.readexactly(int(headers["content-length"]))
        return int(status_line.split()[1]), headers, payload

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


GOOD = json.dumps({"query": "{ __typename }"}).encode()
DEEP = b'{"query": "{ __typename }", "variables": {"v": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
OVER_LIMIT = b'{"query": "' + b"#" * (2 * 1024 * 1024) + b'{ __typename }"}'
MUTATION = quote('mutation { createToken(name: "x") { secret } }')

BAD_REQUESTS = [
    pytest.param("POST", b'"x"', "application/json", id="string-body"),
    pytest.param("POST", b"null", "application/json", id="null-body"),
    pytest.param("POST", b"42", "application/json", id="number-body"),
    pytest.param("POST", b"true", "application/json", id="boolean-body"),
    pytest.param("POST", DEEP, "application/json", id="variables-100000-deep"),
    pytest.param("POST", b'{"query": "{ __typename }"', "application/json", id="invalid-json"),
    pytest.param("POST", b"\xff\xfe{}", "application/json", id="not-utf8"),
    pytest.param("POST", b"", "application/json", id="empty-body"),
    pytest.param("POST", b"[" + GOOD + b"]", "application/json", id="batch"),
    pytest.param("POST", b'{"variables": {}}', "application/json", id="no-query"),
    pytest.param("POST", b'{"query": "{ __typename }", "variables": [1]}', None, id="no-type"),
    pytest.param("POST", b"{ __typename }", "text/plain", id="unsupported-content-type"),
    pytest.param("GET", f"?query={MUTATION}".encode(), None, id="mutation-over-get"),
    pytest.param("PUT", GOOD, "application/json", id="other-method"),
    pytest.param("POST", OVER_LIMIT, "application/json", id="over-the-body-limit"),
]


@pytest.mark.parametrize(("method", "body", "content_type"), BAD_REQUESTS)
async def test_a_refused_body_answers_json_and_the_connection_keeps_working(
    backend: Backend, method: str, body: bytes, content_type: str | None
) -> None:
    connection = await KeepAlive.open(backend.base_url)
    try:
        target = "/graphql" + (body.decode() if method == "GET" else "")
        sent = b"" if method == "GET" else body
        status, headers, payload = await connection.request(method, target, sent, content_type)
        assert 400 <= status < 500
        assert headers["content-type"].startswith("application/json")
        answer = json.loads(payload)
        assert answer["data"] is None
        [error] = answer["errors"]
        assert error["extensions"] == {"code": "VALIDATION_FAILED"} and error["message"]
        assert "Traceback" not in error["message"]
        for _ in range(2):  # the same connection answers the next request
            status, _, payload = await connection.request(
                "POST", "/graphql", GOOD, "application/json"
            )
            assert status == 200 and json.loads(payload) == {"data": {"__typename": "Query"}}
    finally:
        await connection.close()


async def test_nesting_within_the_body_limit_is_accepted(backend: Backend) -> None:
    nested: object = "leaf"
    for _ in range(60):
        nested = [nested]
    body = json.dumps({"query": "{ __typename }", "variables": {"v": nested}})
    response = await backend.client.post(
        "/graphql", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.json() == {"data": {"__typename": "Query"}}
