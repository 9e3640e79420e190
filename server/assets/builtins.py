"""Built-in assets: no workspace, fixed ids, readable and bindable everywhere, never changed.

Migration 0003 inserts these rows, dated when it runs: a built-in is as old as the database
that holds it (a fixed date read "7 days ago" in a database made minutes earlier). A built-in
is never edited in place: a new one (or a new version of one) comes with a new migration, so
a release bound to a built-in version keeps meaning what it meant.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from server.assets.content import check_content
from server.assets.models import AssetKind, VersionState
from server.assets.versioning import content_hash


@dataclass(frozen=True, slots=True)
class BuiltinAsset:
    """One built-in asset with its single version 1."""

    id: str
    version_id: str
    kind: AssetKind
    name: str
    description: str
    content: dict[str, Any]


BUILTINS: tuple[BuiltinAsset, ...] = (
    BuiltinAsset(
        id="ast_builtin_rubric_correct",
        version_id="astv_builtin_rubric_correct_1",
        kind=AssetKind.RUBRIC,
        name="Correct and complete",
        description="Pass when the answer is right and leaves nothing out.",
        content={
            "text": (
                "The answer is correct and complete: it answers the question that was asked, "
                "agrees with the expected answer where one is given, states nothing false and "
                "leaves out nothing the question requires. PASS only when all of this holds; "
                "otherwise FAIL."
            ),
            "scale": "PASS_FAIL",
        },
    ),
    BuiltinAsset(
        id="ast_builtin_rubric_helpfulness",
        version_id="astv_builtin_rubric_helpfulness_1",
        kind=AssetKind.RUBRIC,
        name="Helpfulness 0–1",
        description="A score from 0 (no help) to 1 (fully resolves the request).",
        content={
            "text": (
                "Score how helpful the answer is to the person who asked, from 0 (no help: "
                "wrong, evasive or off-topic) to 1 (resolves the request fully, accurately and "
                "clearly, and is no longer than it needs to be). Partial help scores in between."
            ),
            "scale": "SCORE_0_1",
        },
    ),
    BuiltinAsset(
        id="ast_builtin_tools_web_search",
        version_id="astv_builtin_tools_web_search_1",
        kind=AssetKind.TOOL_SCHEMA,
        name="Web search",
        description="One `web_search` tool taking a query and an optional result count.",
        content={
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": "web_search",
                        "description": "Search the web and return the most relevant results.",
                        "parameters": {
                            "type": "object",
                            "properties": {
                                "query": {"type": "string", "description": "What to search for."},
                                "maxResults": {
                                    "type": "integer",
                                    "minimum": 1,
                                    "maximum": 10,
                                    "description": "How many results to return (default 5).",
                                },
                            },
                            "required": ["query"],
                            "additionalProperties": False,
                        },
                    },
                }
            ]
        },
    ),
    BuiltinAsset(
        id="ast_builtin_prompt_answer",
        version_id="astv_builtin_prompt_answer_1",
        kind=AssetKind.PROMPT_TEMPLATE,
        name="Answer the question",
        description="A short system prompt and the case's `question` as the user message.",
        content={
            "messages": [
                {
                    "role": "system",
                    "content": (
                        "You are a careful assistant. Answer the question accurately and "
                        "concisely. If you do not know the answer, say so."
                    ),
                },
                {"role": "user", "content": "{{ question }}"},
            ]
        },
    ),
)

BUILTIN_ASSET_IDS = frozenset(b.id for b in BUILTINS)


def asset_rows(created_at: datetime | None = None) -> list[dict[str, Any]]:
    """The `asset` rows of the built-ins, for a bulk insert, made at `created_at` (now)."""
    made = created_at or datetime.now(UTC)
    return [
        {
            "id": b.id,
            "workspace_id": None,
            "kind": b.kind.value,
            "name": b.name,
            "description": b.description,
            "created_at": made,
            "created_by_member_id": None,
        }
        for b in BUILTINS
    ]


def version_rows(created_at: datetime | None = None) -> list[dict[str, Any]]:
    """The `asset_version` rows of the built-ins, checked like any other content, made and
    sealed at `created_at` (now)."""
    made = created_at or datetime.now(UTC)
    rows = []
    for b in BUILTINS:
        checked = check_content(b.kind, b.content)
        rows.append(
            {
                "id": b.version_id,
                "asset_id": b.id,
                "workspace_id": None,
                "kind": b.kind.value,
                "number": 1,
                "state": VersionState.SEALED.value,
                "content": checked.content,
                "content_hash": content_hash(checked.content),
                "variables": checked.variables,
                "case_count": 0,
                "dev_case_count": 0,
                "holdout_case_count": 0,
                "created_at": made,
                "sealed_at": made,
                "created_by_member_id": None,
            }
        )
    return rows
