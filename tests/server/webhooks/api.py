"""GraphQL documents and waiting helpers shared by the webhook tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench.kit.harness import Backend, GraphQLResult
from bench.kit.waiting import API_POLL_SECONDS, eventually

SECRET = "whsec-test-0123456789abcdef"

CREATE = """
mutation($url: String!, $secret: String!, $events: [WebhookEvent!]!, $experimentId: ID) {
  createWebhook(url: $url, secret: $secret, events: $events, experimentId: $experimentId) {
    id url events experimentId enabled createdAt
  }
}
"""

DELIVERY_FIELDS = """
    id eventId event subjectId status attemptCount nextAttemptAt createdAt deliveredAt payload
    attempts { number startedAt finishedAt httpStatus errorCode durationMs }
"""

WEBHOOKS = (
    "query($first: Int) { webhooks(first: $first) { totalCount edges { node {"
    " id url events experimentId enabled"
    " deliveries(first: 20) { totalCount edges { node {" + DELIVERY_FIELDS + "} } } } } } }"
)

REDELIVER = (
    "mutation($id: ID!) { redeliverWebhook(deliveryId: $id) {" + DELIVERY_FIELDS + "} }"
)


async def create_webhook(
    backend: Backend,
    token: str,
    url: str,
    events: list[str],
    *,
    secret: str = SECRET,
    experiment_id: str | None = None,
) -> GraphQLResult:
    variables = {"url": url, "secret": secret, "events": events, "experimentId": experiment_id}
    return await backend.gql(CREATE, variables, token=token)


async def deliveries(backend: Backend, token: str, webhook_id: str) -> list[dict[str, Any]]:
    data = (await backend.gql(WEBHOOKS, {"first": 100}, token=token)).ok()
    for edge in data["webhooks"]["edges"]:
        if edge["node"]["id"] == webhook_id:
            return [e["node"] for e in edge["node"]["deliveries"]["edges"]]
    raise AssertionError(f"webhook {webhook_id} not listed")


async def wait_for(
    backend: Backend,
    token: str,
    webhook_id: str,
    done: Callable[[list[dict[str, Any]]], bool],
    *,
    timeout: float = 60.0,
) -> list[dict[str, Any]]:
    """The webhook's deliveries once `done(deliveries)` holds; fails after `timeout`, a bound
    for a slow host: on PostgreSQL the session's `shipwise worker` sends them, and the first
    test of an xdist worker may run while that process is still starting (20 s was too short
    at load 12)."""
    return await eventually(
        lambda: deliveries(backend, token, webhook_id),
        until=done,
        timeout=timeout,
        interval=API_POLL_SECONDS,
        what="deliveries settled",
    )
