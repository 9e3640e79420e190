"""API tokens are verified against the database at most once every few seconds per process,
and a revoked token is refused within 5 seconds — revoked through the API or by another
process writing the database."""

from __future__ import annotations

import asyncio
import time

from sqlalchemy import update

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.statements import counting_statements, is_token_check
from bench.kit.waiting import eventually
from server.db import utcnow
from server.workspaces.models import ApiToken
from server.workspaces.roles import Role

ME = "{ me { role } }"
CREATE = "mutation { createToken(name: \"ci\") { token { id } secret } }"
REVOKE = "mutation($id: ID!) { revokeToken(id: $id) { id revokedAt } }"


async def _new_token(backend: Backend, owner: str) -> tuple[str, str]:
    created = (await backend.gql(CREATE, token=owner)).ok()["createToken"]
    return created["token"]["id"], created["secret"]


async def _seconds_until_refused(backend: Backend, token: str) -> float:
    started = time.monotonic()
    result = await eventually(
        lambda: backend.gql(ME, token=token),
        until=lambda r: r.body.get("errors"),
        timeout=10,
        interval=0.1,
        what="the revoked token refused",
    )
    assert result.body["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
    return time.monotonic() - started


async def test_a_verified_token_costs_no_statement_until_it_is_checked_again(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    (await backend.gql(ME, token=ws.tokens[Role.VIEWER])).ok()
    with counting_statements(backend, token_checks=True) as seen:
        assert (await backend.gql(ME, token=ws.tokens[Role.VIEWER])).ok() == {
            "me": {"role": "VIEWER"}
        }
    assert not [s for s in seen if is_token_check(s)], seen


async def test_a_token_revoked_through_the_api_is_refused_within_5_seconds(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token_id, secret = await _new_token(backend, ws.owner)
    assert (await backend.gql(ME, token=secret)).ok() == {"me": {"role": "OWNER"}}  # cached
    (await backend.gql(REVOKE, {"id": token_id}, token=ws.owner)).ok()
    assert await _seconds_until_refused(backend, secret) < 5


async def test_a_token_revoked_by_another_process_is_refused_within_5_seconds(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token_id, secret = await _new_token(backend, ws.owner)
    assert (await backend.gql(ME, token=secret)).ok() == {"me": {"role": "OWNER"}}  # cached
    async with backend.sessionmaker() as session, session.begin():  # as another API process
        await session.execute(
            update(ApiToken).where(ApiToken.id == token_id).values(revoked_at=utcnow())
        )
    assert await _seconds_until_refused(backend, secret) < 5


async def test_requests_that_miss_on_one_token_at_once_share_one_check(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    _, secret = await _new_token(backend, ws.owner)  # not checked by any request yet
    started = time.monotonic()
    with counting_statements(backend, token_checks=True) as seen:
        answers = await asyncio.gather(*(backend.gql(ME, token=secret) for _ in range(20)))
    elapsed = time.monotonic() - started
    assert [answer.ok() for answer in answers] == [{"me": {"role": "OWNER"}}] * 20
    # One check, and one more for each time the verified token expired meanwhile (a slow
    # host): never one per request.
    ttl = backend.settings.token_cache_seconds
    assert len([s for s in seen if is_token_check(s)]) <= 1 + int(elapsed // ttl), seen


async def test_requests_with_one_unknown_token_at_once_are_each_refused(
    backend: Backend,
) -> None:
    answers = await asyncio.gather(*(backend.gql(ME, token="sw_unknown") for _ in range(5)))
    assert [answer.codes for answer in answers] == [["UNAUTHENTICATED"]] * 5
