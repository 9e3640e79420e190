"""The server operations an evaluation uses, each one GraphQL document."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from shipwise.errors import NotFoundError, ValidationError
from shipwise.transport import Transport

PAGE = 100
RUN_SCAN_PAGES = 20
"""Runs read (newest first, 100 a page) looking for an idempotency key to resume."""
ID = re.compile(r"^[a-z]{2,5}_[0-9a-z]{26}$")

DATASET_BY_ID = """query($id: ID!) { dataset(id: $id) { id name
  latestVersion { id number caseCount } } }"""
DATASETS = """query($after: String) { datasets(first: 100, after: $after) {
  pageInfo { hasNextPage endCursor }
  edges { node { id name latestVersion { id number caseCount } } } } }"""
VERSION = """query($id: ID!) { datasetVersion(id: $id) { id datasetId number state caseCount
  caseCounts { dev holdout } } }"""
CASES = """query($id: ID!, $split: Split, $first: Int, $after: String) {
  datasetVersion(id: $id) { cases(split: $split, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { node { datasetItemId input expected split tags } } } } }"""
EXPERIMENTS = """query($after: String) { experiments(first: 100, after: $after) {
  pageInfo { hasNextPage endCursor } edges { node { id name } } } }"""
CREATE_EXPERIMENT = """mutation($name: String!) { createExperiment(input: {name: $name}) { id } }"""
RUNS = """query($e: ID!, $after: String) { runs(experimentId: $e, first: 100, after: $after) {
  pageInfo { hasNextPage endCursor }
  edges { node { id status idempotencyKey itemCount } } } }"""
RUN_ITEMS = """query($id: ID!, $after: String) { run(id: $id) { items(first: 100, after: $after) {
  pageInfo { hasNextPage endCursor } edges { node { position } } } } }"""
START = """mutation($e: ID!, $k: String!, $m: JSON) {
  startRunImport(experimentId: $e, idempotencyKey: $k, metadata: $m) { id status itemCount } }"""
START_WITH_CHECKS = """mutation($e: ID!, $k: String!, $m: JSON, $checks: JSON) {
  startRunImport(experimentId: $e, idempotencyKey: $k, metadata: $m, checks: $checks) {
    id status itemCount } }"""
APPEND = """mutation($id: ID!, $items: JSON!) {
  appendRunItems(runId: $id, items: $items) { appendedCount itemCount } }"""
COMPLETE = """mutation($id: ID!, $n: Int) { completeRun(runId: $id, itemCount: $n) {
  id status itemCount } }"""
SUMMARY = """baselinePassRate candidatePassRate passRateDelta deltaLow deltaHigh method pValue
  significant significanceReason improvedCount regressedCount unchangedCount addedCount
  removedCount pairedCount gradedPairCount epsilon pairing
  evaluators { name baselineMean candidateMean delta adjustedPValue significant }"""


@dataclass(frozen=True)
class Version:
    id: str
    dataset_id: str
    number: int
    counts: dict[str | None, int]
    """Cases per split (None: every split)."""


def looks_like_id(text: str) -> bool:
    return bool(ID.match(text))


async def dataset_version(transport: Transport, dataset: str, version: str | None) -> Version:
    """The version given, else the dataset's (by id or name) latest SEALED version."""
    if version is None:
        node = await _dataset(transport, dataset)
        latest = node.get("latestVersion")
        if latest is None:
            raise NotFoundError(
                f"dataset {node['name']!r} has no sealed version", extensions={"field": "dataset"}
            )
        version = str(latest["id"])
    found = (await transport.execute(VERSION, {"id": version}))["datasetVersion"]
    if found["state"] != "SEALED":
        raise ValidationError(
            f"dataset version {version} is {found['state']}, not SEALED",
            extensions={"field": "version"},
        )
    counts: dict[str | None, int] = {
        None: int(found["caseCount"]),
        "DEV": int(found["caseCounts"]["dev"]),
        "HOLDOUT": int(found["caseCounts"]["holdout"]),
    }
    return Version(found["id"], found["datasetId"], int(found["number"]), counts)


async def _dataset(transport: Transport, dataset: str) -> dict[str, Any]:
    if looks_like_id(dataset):
        node: dict[str, Any] = (await transport.execute(DATASET_BY_ID, {"id": dataset}))["dataset"]
        return node
    after = None
    while True:
        page = (await transport.execute(DATASETS, {"after": after}))["datasets"]
        for edge in page["edges"]:
            if edge["node"]["name"] == dataset:
                found: dict[str, Any] = edge["node"]
                return found
        if not page["pageInfo"]["hasNextPage"]:
            raise NotFoundError(f"no dataset named {dataset!r}", extensions={"field": "dataset"})
        after = page["pageInfo"]["endCursor"]


async def cases(
    transport: Transport, version_id: str, split: str | None
) -> AsyncIterator[dict[str, Any]]:
    """The version's cases in order, page by page."""
    after = None
    while True:
        answer = await transport.execute(
            CASES, {"id": version_id, "split": split, "first": PAGE, "after": after}
        )
        page = answer["datasetVersion"]["cases"]
        for edge in page["edges"]:
            yield edge["node"]
        if not page["pageInfo"]["hasNextPage"]:
            return
        after = page["pageInfo"]["endCursor"]


async def find_experiment(transport: Transport, name: str) -> str | None:
    """The id of the experiment with this name (or id), if any."""
    after = None
    while True:
        page = (await transport.execute(EXPERIMENTS, {"after": after}))["experiments"]
        for edge in page["edges"]:
            if name in (edge["node"]["name"], edge["node"]["id"]):
                return str(edge["node"]["id"])
        if not page["pageInfo"]["hasNextPage"]:
            return None
        after = page["pageInfo"]["endCursor"]


async def create_experiment(transport: Transport, name: str) -> str:
    return str(
        (await transport.execute(CREATE_EXPERIMENT, {"name": name}))["createExperiment"]["id"]
    )


async def runs(transport: Transport, experiment_id: str) -> AsyncIterator[dict[str, Any]]:
    """The experiment's runs, newest first, at most RUN_SCAN_PAGES pages."""
    after = None
    for _ in range(RUN_SCAN_PAGES):
        page = (await transport.execute(RUNS, {"e": experiment_id, "after": after}))["runs"]
        for edge in page["edges"]:
            yield edge["node"]
        if not page["pageInfo"]["hasNextPage"]:
            return
        after = page["pageInfo"]["endCursor"]


async def stored_positions(transport: Transport, run_id: str) -> set[int]:
    found: set[int] = set()
    after = None
    while True:
        page = (await transport.execute(RUN_ITEMS, {"id": run_id, "after": after}))["run"]["items"]
        found.update(int(edge["node"]["position"]) for edge in page["edges"])
        if not page["pageInfo"]["hasNextPage"]:
            return found
        after = page["pageInfo"]["endCursor"]


async def start_run(
    transport: Transport,
    experiment_id: str,
    key: str,
    metadata: dict[str, Any],
    checks: list[dict[str, Any]] | None,
) -> dict[str, Any]:
    variables: dict[str, Any] = {"e": experiment_id, "k": key, "m": metadata}
    if checks is None:
        run: dict[str, Any] = (await transport.execute(START, variables))["startRunImport"]
        return run
    run = await transport.execute(START_WITH_CHECKS, {**variables, "checks": checks})
    started: dict[str, Any] = run["startRunImport"]
    return started


async def append(transport: Transport, run_id: str, items: list[dict[str, Any]]) -> int:
    answer = await transport.execute(APPEND, {"id": run_id, "items": items})
    return int(answer["appendRunItems"]["itemCount"])


async def complete(transport: Transport, run_id: str, item_count: int) -> dict[str, Any]:
    run: dict[str, Any] = (await transport.execute(COMPLETE, {"id": run_id, "n": item_count}))[
        "completeRun"
    ]
    return run


async def run_diff(
    transport: Transport,
    candidate: str,
    baseline: str,
    *,
    decision_selection: str | None,
    policy: dict[str, Any] | None,
    worst: int = 10,
) -> dict[str, Any]:
    """The diff's summary, its worst (regressed) cases and, where offered, the decision."""
    params = "$c: ID!, $b: ID!, $worst: Int"
    args = "candidateRunId: $c, baselineRunId: $b"
    variables: dict[str, Any] = {"c": candidate, "b": baseline, "worst": worst}
    if policy is not None:
        params += ", $policy: ShipPolicyInput"
        args += ", policy: $policy"
        variables["policy"] = policy
    document = (
        f"query({params}) {{ runDiff({args}) {{ summary {{ {SUMMARY} }} "
        "cases(status: REGRESSED, first: $worst) { totalCount edges { node { datasetItemId "
        "position status passFlip candidatePassFraction baselinePassFraction } } } "
        f"{decision_selection or ''} }} }}"
    )
    diff: dict[str, Any] = (await transport.execute(document, variables))["runDiff"]
    return diff
