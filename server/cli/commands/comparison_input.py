"""The comparison input the `shipwise comparison create | preview` flags describe.

`--cohort-json` takes the API's shape (`{"kind": "RELEASE", "releaseId": …}`) or seed 000's
(`{"cohort_kind": "release", "release_id": …}`, `{"cohort_kind": "variant",
"base_release_id": …, "overrides": {"prompt_template": "<asset version id>"}}`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

_COHORT_KEYS = {
    "kind": "kind",
    "cohort_kind": "kind",
    "cohortKind": "kind",
    "releaseId": "releaseId",
    "release_id": "releaseId",
    "baseReleaseId": "baseReleaseId",
    "base_release_id": "baseReleaseId",
    "overrides": "overrides",
    "label": "label",
}


class BadInput(Exception):
    """A flag whose value cannot become part of the input (exit 2, nothing sent)."""


def _json(flag: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{flag} is not valid JSON: {exc.msg} at character {exc.pos}") from None


def _overrides(where: str, value: Any) -> list[dict[str, str]]:
    """`{role: assetVersionId}` or `[{role, assetVersionId}]`, roles in either case."""
    if isinstance(value, dict):
        items = [{"role": role, "assetVersionId": version} for role, version in value.items()]
    elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
        items = [
            {
                "role": v.get("role"),
                "assetVersionId": v.get("assetVersionId", v.get("asset_version_id")),
            }
            for v in value
        ]
    else:
        raise BadInput(f"{where}: `overrides` must map roles to asset version ids")
    for item in items:
        if not isinstance(item["role"], str) or not isinstance(item["assetVersionId"], str):
            raise BadInput(f"{where}: each override needs a role and an asset version id")
        item["role"] = item["role"].upper()
    return items


def cohort(index: int, text: str) -> dict[str, Any]:
    """One `--cohort-json` value as a `ComparisonCohortInput`."""
    where = f"--cohort-json #{index + 1}"
    value = _json(where, text)
    if not isinstance(value, dict):
        raise BadInput(f"{where} must be a JSON object")
    unknown = sorted(set(value) - set(_COHORT_KEYS))
    if unknown:
        raise BadInput(f"{where}: unknown field(s) {', '.join(unknown)}")
    result: dict[str, Any] = {}
    for key, item in value.items():
        result[_COHORT_KEYS[key]] = item
    if not isinstance(result.get("kind"), str):
        raise BadInput(f"{where}: give `kind` (RELEASE or VARIANT)")
    result["kind"] = result["kind"].upper()
    if "overrides" in result:
        result["overrides"] = _overrides(where, result["overrides"])
    return result


def comparison_input(
    *,
    cohorts: Sequence[str],
    dataset: str | None,
    dataset_version: str | None,
    experiment_id: str | None,
    trials: int | None,
    split: str | None,
    checks_json: str | None,
    budget_cents: float | None,
    label: str | None,
    sample_size: int | None,
    sample_seed: int,
) -> dict[str, Any]:
    """A `CreateComparisonInput`; fields left out take the server's defaults."""
    if (dataset is None) == (dataset_version is None):
        raise BadInput("give either --dataset (its latest sealed version) or --dataset-version")
    if len(cohorts) < 2:
        raise BadInput("give at least two --cohort-json (the first is the candidate)")
    value: dict[str, Any] = {"cohorts": [cohort(i, text) for i, text in enumerate(cohorts)]}
    optional: dict[str, Any] = {
        "datasetId": dataset,
        "datasetVersionId": dataset_version,
        "experimentId": experiment_id,
        "trialsPerCase": trials,
        "split": split.upper() if split else None,
        "budgetCapCents": budget_cents,
        "label": label,
    }
    value.update({k: v for k, v in optional.items() if v is not None})
    if checks_json is not None:
        checks = _json("--checks-json", checks_json)
        value["checks"] = checks if isinstance(checks, list) else [checks]
    if sample_size is not None:
        value["sample"] = {"size": sample_size, "seed": sample_seed}
    return value
