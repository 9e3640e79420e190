"""`schema.graphql` is the exported SDL; this fails when it drifts from the code."""

from __future__ import annotations

from pathlib import Path

from server.api.schema import export_sdl

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "schema.graphql"


def test_schema_graphql_matches_the_code() -> None:
    assert SCHEMA_FILE.read_text() == export_sdl(), (
        "schema.graphql is stale: run `make schema` and commit it"
    )
