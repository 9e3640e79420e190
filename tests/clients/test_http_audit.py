"""graphql-http's `auditServer`, the GraphQL-over-HTTP spec's own audit, against a live server."""

from __future__ import annotations

import json

from bench.kit.harness import Backend
from tests.clients import node

CHECKS = 61
"""The checks of graphql-http 1.23.1 (web/package-lock.json)."""


async def test_every_check_of_the_graphql_over_http_audit_is_ok(sqlite_backend: Backend) -> None:
    executable = node.require_packages("graphql-http")
    url = f"{sqlite_backend.base_url}/graphql"
    results = json.loads(await node.run(executable, "scripts/audit-server.mjs", url))
    assert len(results) == CHECKS
    assert [r for r in results if r["status"] != "ok"] == []
