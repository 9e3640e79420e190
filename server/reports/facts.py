"""The facts line of a report: what ran, on what, with which models, when, and at what cost."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import Asset, AssetVersion
from server.comparisons.models import Comparison, ComparisonCohort
from server.connections.models import ConnectionKind, ModelConnection
from server.money import dollars, micros_to_cents
from server.releases.models import Release

HOSTED_RUN: Final = "Hosted run: the prompt alone, one model call per case and trial."

CHECK_WORDS: Final = {
    "EXACT_MATCH": "Matches the expected output",
    "CONTAINS": "Contains the expected output",
    "JSON_SCHEMA": "Output matches the schema",
    "TOOL_CALL": "Calls the expected tool",
    "JUDGE_RUBRIC": "Judge with a rubric",
}


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _check_text(check: dict[str, Any]) -> str:
    words = CHECK_WORDS.get(str(check.get("kind")), str(check.get("kind")))
    if check.get("kind") == "TOOL_CALL" and check.get("toolName"):
        return f"{words} ({check['toolName']})"
    return words


async def cohorts(session: AsyncSession, comparison: Comparison) -> list[dict[str, Any]]:
    """Each cohort with its release, connection and model, as the report shows them."""
    rows = list(
        await session.scalars(
            select(ComparisonCohort)
            .where(ComparisonCohort.comparison_id == comparison.id)
            .order_by(ComparisonCohort.cohort_index)
        )
    )
    release_names = {
        str(release_id): str(name)
        for release_id, name in await session.execute(
            select(Release.id, Release.name).where(Release.id.in_([r.release_id for r in rows]))
        )
    }
    config_ids = [r.bindings.get("model_config") for r in rows if r.bindings.get("model_config")]
    configs = {
        v.id: v.content
        for v in await session.scalars(select(AssetVersion).where(AssetVersion.id.in_(config_ids)))
    }
    connection_ids = {str(c.get("connectionId")) for c in configs.values()}
    connections = {
        c.id: c
        for c in await session.scalars(
            select(ModelConnection).where(
                ModelConnection.id.in_(connection_ids),
                ModelConnection.workspace_id == comparison.workspace_id,
            )
        )
    }
    found = []
    for row in rows:
        config = configs.get(row.bindings.get("model_config", ""), {})
        connection = connections.get(str(config.get("connectionId")))
        found.append(
            {
                "cohortIndex": row.cohort_index,
                "label": row.label,
                "kind": row.kind.value,
                "isCandidate": row.cohort_index == 0,
                "releaseId": row.release_id,
                "releaseName": release_names.get(row.release_id),
                "model": config.get("model"),
                "connection": None
                if connection is None
                else {
                    "id": connection.id,
                    "name": connection.name,
                    "kind": connection.kind.value,
                    "simulated": connection.kind == ConnectionKind.SIMULATED,
                },
            }
        )
    return found


def _connections_text(cohort_rows: list[dict[str, Any]]) -> str:
    by_connection: dict[str, list[str]] = {}
    for cohort in cohort_rows:
        connection = cohort["connection"]
        name = "unknown connection"
        if connection is not None:
            name = connection["name"] + (" (simulated)" if connection["simulated"] else "")
        models = by_connection.setdefault(name, [])
        if cohort["model"] and cohort["model"] not in models:
            models.append(str(cohort["model"]))
    return "; ".join(
        f"{name}: {', '.join(models) or 'no model'}" for name, models in by_connection.items()
    )


async def build(
    session: AsyncSession,
    comparison: Comparison,
    scorecard: dict[str, Any],
    cohort_rows: list[dict[str, Any]],
) -> dict[str, Any]:
    """The facts of docs/domain.md, as values and as the one line the page prints."""
    version = await session.get(AssetVersion, comparison.dataset_version_id)
    asset = await session.get(Asset, version.asset_id) if version is not None else None
    dataset_name = asset.name if asset is not None else "dataset"
    number = version.number if version is not None else 0
    checks = [_check_text(c) for c in comparison.checks]
    cost_cents = micros_to_cents(comparison.spent_micros)
    split = "Dev" if comparison.split == "DEV" else "Holdout"
    usable = int(scorecard.get("usableCases", 0))
    connections = _connections_text(cohort_rows)
    text = (
        f"Dataset {dataset_name} v{number} · {split} split · {comparison.case_count} cases "
        f"({usable} usable, {int(scorecard.get('casesNotRun', 0))} not run) · "
        f"{_trials(comparison.trials_per_case)} per case · Checks: {', '.join(checks)} · "
        f"Connections and models: {connections} · "
        f"Started {_short(comparison.started_at)}, ended {_short(comparison.ended_at)}, "
        f"finalized {_short(comparison.finalized_at)} · "
        f"Cost of this comparison: {dollars(cost_cents)}. {HOSTED_RUN}"
    )
    return {
        "dataset": {
            "id": asset.id if asset is not None else None,
            "name": dataset_name,
            "versionId": comparison.dataset_version_id,
            "versionNumber": number,
        },
        "split": comparison.split,
        "cases": comparison.case_count,
        "usableCases": usable,
        "casesNotRun": int(scorecard.get("casesNotRun", 0)),
        "trialsPerCase": comparison.trials_per_case,
        "checks": checks,
        "connections": connections,
        "createdAt": _time(comparison.created_at),
        "startedAt": _time(comparison.started_at),
        "endedAt": _time(comparison.ended_at),
        "finalizedAt": _time(comparison.finalized_at),
        "costCents": cost_cents,
        "hostedRun": HOSTED_RUN,
        "text": text,
    }


def _trials(count: int) -> str:
    return "1 trial" if count == 1 else f"{count} trials"


def _short(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M UTC") if value is not None else "—"
