"""Websocket authentication over graphql-transport-ws only."""

from __future__ import annotations

import json

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend

PROTOCOL = "graphql-transport-ws"


async def _init(backend: Backend, payload: object) -> tuple[int | None, dict[str, object] | None]:
    """Send connection_init; return (close code, first message)."""
    async with websockets.connect(backend.ws_url, subprotocols=[PROTOCOL]) as ws:  # type: ignore[list-item]
        await ws.send(json.dumps({"type": "connection_init", "payload": payload}))
        try:
            message = json.loads(await ws.recv())
        except ConnectionClosed as closed:
            return (closed.rcvd.code if closed.rcvd else None), None
        return None, message


@pytest.mark.parametrize(
    "payload",
    [{}, {"Authorization": "Bearer sw_wrong"}, {"token": "nonsense"}],
    ids=["no-token", "unknown-bearer", "malformed"],
)
async def test_a_bad_token_is_refused_with_4403(backend: Backend, payload: object) -> None:
    code, message = await _init(backend, payload)
    assert code == 4403
    assert message is None


@pytest.mark.parametrize("style", ["Authorization", "authorization", "token"])
async def test_a_good_token_is_acknowledged(backend: Backend, style: str) -> None:
    ws = await make_workspace(backend.sessionmaker)
    value = ws.owner if style == "token" else f"Bearer {ws.owner}"
    code, message = await _init(backend, {style: value})
    assert code is None
    assert message == {"type": "connection_ack"}


async def test_a_revoked_token_is_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token_id = (await backend.gql("{ me { tokenId } }", token=ws.owner)).ok()["me"]["tokenId"]
    admin = [t for r, t in ws.tokens.items() if r.value == "ADMIN"][0]
    await backend.gql(
        "mutation($id: ID!) { revokeToken(id: $id) { id } }", {"id": token_id}, token=ws.owner
    )
    code, _ = await _init(backend, {"Authorization": f"Bearer {ws.owner}"})
    assert code == 4403
    code, _ = await _init(backend, {"Authorization": f"Bearer {admin}"})
    assert code is None


async def test_the_legacy_protocol_is_not_spoken(backend: Backend) -> None:
    with pytest.raises(Exception):  # noqa: B017 - the handshake itself must fail
        async with websockets.connect(backend.ws_url, subprotocols=["graphql-ws"]) as ws:  # type: ignore[list-item]
            await ws.send(json.dumps({"type": "connection_init", "payload": {}}))
            await ws.recv()
