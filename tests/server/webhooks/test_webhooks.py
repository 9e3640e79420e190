"""Creating and reading webhooks: roles, validation, the write-only secret, the URL rule."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import func, select

from bench.kit.factories import make_experiment, make_workspace
from bench.kit.harness import Backend
from server.audit.models import AuditEvent
from server.webhooks.models import Webhook
from server.workspaces.roles import Role
from tests.server.webhooks.api import SECRET, WEBHOOKS, create_webhook

URL = "https://93.184.215.14/shipwise"
"""A public address (no name to resolve: tests run without DNS); never sent to here."""


@pytest.fixture
def private_addresses_refused(backend: Backend) -> Iterator[None]:
    """The server's production default for the length of one test."""
    settings = backend.state.settings
    settings.webhook_allow_private = False
    try:
        yield
    finally:
        settings.webhook_allow_private = True


async def _webhook_count(backend: Backend, workspace_id: str) -> int:
    async with backend.sessionmaker() as session:
        count = await session.scalar(
            select(func.count()).select_from(Webhook).where(Webhook.workspace_id == workspace_id)
        )
    return int(count or 0)


async def test_an_admin_creates_a_webhook_whose_secret_is_never_shown(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    experiment = await make_experiment(backend.sessionmaker, ws, name="nightly")
    result = await create_webhook(
        backend,
        ws.tokens[Role.ADMIN],
        URL,
        ["RUN_REGRESSED", "COMPARISON_FINISHED", "RUN_REGRESSED"],
        experiment_id=experiment.id,
    )
    created = result.ok()["createWebhook"]
    assert created["url"] == URL
    assert created["events"] == ["COMPARISON_FINISHED", "RUN_REGRESSED"]
    assert created["experimentId"] == experiment.id
    assert created["enabled"] is True
    assert SECRET not in str(result.body)

    listed = (await backend.gql(WEBHOOKS, token=ws.tokens[Role.VIEWER])).ok()["webhooks"]
    assert listed["totalCount"] == 1
    node = listed["edges"][0]["node"]
    assert node["id"] == created["id"]
    assert node["deliveries"] == {"totalCount": 0, "edges": []}

    async with backend.sessionmaker() as session:
        row = await session.get(Webhook, created["id"])
        events = (
            await session.scalars(select(AuditEvent).where(AuditEvent.target_id == created["id"]))
        ).all()
    assert row is not None and SECRET not in row.secret_encrypted
    assert backend.state.secret_box.decrypt(row.secret_encrypted) == SECRET
    assert [e.action for e in events] == ["webhook.create"]
    assert events[0].actor_role == "ADMIN"
    assert events[0].details["url"] == URL
    assert SECRET not in str(events[0].details)


async def test_the_secret_is_not_a_field_of_the_schema(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await backend.gql("{ webhooks { edges { node { secret } } } }", token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"]


@pytest.mark.parametrize("role", [Role.MEMBER, Role.VIEWER])
async def test_below_admin_cannot_create_a_webhook(backend: Backend, role: Role) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await create_webhook(backend, ws.tokens[role], URL, ["COMPARISON_FINISHED"])
    assert result.codes == ["FORBIDDEN"]
    assert await _webhook_count(backend, ws.id) == 0


@pytest.mark.parametrize(
    ("url", "secret", "events", "field"),
    [
        ("ftp://hooks.example.com/x", SECRET, ["COMPARISON_FINISHED"], "url"),
        ("hooks.example.com/x", SECRET, ["COMPARISON_FINISHED"], "url"),
        ("https://user:pw@hooks.example.com/x", SECRET, ["COMPARISON_FINISHED"], "url"),
        ("https://" + "a" * 2000 + ".com", SECRET, ["COMPARISON_FINISHED"], "url"),
        (URL, "short", ["COMPARISON_FINISHED"], "secret"),
        (URL, SECRET, [], "events"),
    ],
    ids=["ftp", "no-scheme", "credentials", "too-long", "short-secret", "no-events"],
)
async def test_bad_input_is_refused_and_writes_nothing(
    backend: Backend, url: str, secret: str, events: list[str], field: str
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await create_webhook(backend, ws.owner, url, events, secret=secret)
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.errors[0]["extensions"]["field"] == field
    assert await _webhook_count(backend, ws.id) == 0


async def test_an_unknown_event_is_a_validation_error(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await create_webhook(backend, ws.owner, URL, ["COMPARISON_STARTED"])
    assert result.codes == ["VALIDATION_FAILED"]


async def test_another_workspaces_experiment_is_not_found(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    experiment = await make_experiment(backend.sessionmaker, other, name="theirs")
    result = await create_webhook(
        backend, ws.owner, URL, ["COMPARISON_FINISHED"], experiment_id=experiment.id
    )
    assert result.codes == ["NOT_FOUND"]
    assert await _webhook_count(backend, ws.id) == 0


async def test_webhooks_are_listed_only_in_their_workspace(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    (await create_webhook(backend, ws.owner, URL, ["COMPARISON_FINISHED"])).ok()
    listed = (await backend.gql(WEBHOOKS, token=other.owner)).ok()["webhooks"]
    assert listed["totalCount"] == 0


@pytest.mark.usefixtures("private_addresses_refused")
@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/hook",
        "http://localhost:9/hook",
        "http://10.1.2.3/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]:9/hook",
        "http://[::ffff:127.0.0.1]/hook",
    ],
    ids=["loopback", "localhost", "private", "link-local", "ipv6-loopback", "mapped-loopback"],
)
async def test_a_private_address_is_refused_unless_allowed(backend: Backend, url: str) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await create_webhook(backend, ws.owner, url, ["COMPARISON_FINISHED"])
    assert result.codes == ["VALIDATION_FAILED"]
    extensions = result.errors[0]["extensions"]
    assert (extensions["field"], extensions["reason"]) == ("url", "PRIVATE_ADDRESS")
    assert await _webhook_count(backend, ws.id) == 0


async def test_a_private_address_is_accepted_when_allowed(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await create_webhook(backend, ws.owner, "http://127.0.0.1:9/hook", ["RUN_REGRESSED"])
    assert result.ok()["createWebhook"]["url"] == "http://127.0.0.1:9/hook"


async def test_an_unresolvable_host_is_refused(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await create_webhook(
        backend, ws.owner, "https://no-such-host.invalid/hook", ["RUN_REGRESSED"]
    )
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.errors[0]["extensions"]["reason"] == "UNRESOLVABLE"
