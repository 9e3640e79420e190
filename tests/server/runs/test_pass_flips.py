"""Numbers that agree (issue 33, point 6): on the same two result files, the pass-flip count
— items graded on both sides whose majority outcome flipped — is the same in the API, its
cases' `passFlip`, the diff page, `shipwise diff`, `shipwise gate` and `shipwise compare`,
while the diff's descriptive `regressed` count (an evaluator moving is enough) stays apart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.cli.commands.compare_helpers import shipwise_compare, write_results
from tests.server.cli.commands.test_runs_cli import client_env, import_file
from tests.server.cli.invoke import shipwise
from tests.server.runs.api import experiment

ITEMS = 40
SUMMARY = """
query($c: ID!, $b: ID!) { runDiff(candidateRunId: $c, baselineRunId: $b) {
  summary { regressedCount improvedCount passFlipsToFail passFlipsToPass }
  cases(filter: ALL, first: 100) { edges { node { passFlip } } } } }
"""
DIFF_LINK = """mutation($c: ID!, $b: ID!) {
  diffLink(candidateRunId: $c, baselineRunId: $b, expiresInHours: 2) { url } }"""


def pass_flip_files(tmp_path: Path) -> tuple[Path, Path, int, int, int]:
    """Three trials per item. Items 0–5 flip pass → fail (2 of 3 → 1 of 3), items 6–7 fail →
    pass; items 8–17 keep their majority but an evaluator drops 0.03 (the diff calls them
    regressed, no test of passes does). (baseline, candidate, to fail, to pass, evaluator)."""
    baseline: list[dict[str, Any]] = []
    candidate: list[dict[str, Any]] = []
    for i in range(ITEMS):
        before = [True, True, False] if i != 6 and i != 7 else [True, False, False]
        after = list(before)
        if i < 6:
            after = [True, False, False]
        elif i < 8:
            after = [True, True, False]
        score = 0.5 - (0.03 if 8 <= i < 18 else 0.0)
        for side, grades, value in ((baseline, before, 0.5), (candidate, after, score)):
            side.append(
                {
                    "datasetItemId": f"i{i:02d}",
                    "position": i,
                    "input": f"task {i}",
                    "trials": [{"passed": g, "evaluators": {"style": value}} for g in grades],
                }
            )
    return (
        write_results(tmp_path / "main.jsonl", baseline),
        write_results(tmp_path / "branch.jsonl", candidate),
        6,
        2,
        10,
    )


async def test_every_surface_counts_the_same_pass_flips(backend: Backend, tmp_path: Path) -> None:
    main, branch, to_fail, to_pass, evaluator_only = pass_flip_files(tmp_path)
    said = f"pass flips {to_fail} pass → fail · {to_pass} fail → pass"

    # Its own event loop: in a thread, beside the one serving the backend.
    compared = await asyncio.to_thread(
        shipwise_compare, "--baseline", str(main), "--treatment", str(branch)
    )
    assert compared.code == 0, compared.stderr
    assert said in compared.stdout
    assert f"{to_pass} improved · {to_fail} regressed of {ITEMS} cases" in compared.stdout

    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    await experiment(backend, member)
    runs = []
    for path in (main, branch):
        done = await import_file(backend, member, path)
        assert done.code == 0, done.stderr
        runs.append(done.stdout.strip().splitlines()[-1])
    baseline, candidate = runs

    found = (await backend.gql(SUMMARY, {"c": candidate, "b": baseline}, token=member)).ok()
    summary: dict[str, Any] = found["runDiff"]["summary"]
    assert (summary["passFlipsToFail"], summary["passFlipsToPass"]) == (to_fail, to_pass)
    assert summary["regressedCount"] == to_fail + evaluator_only
    flips = [e["node"]["passFlip"] for e in found["runDiff"]["cases"]["edges"]]
    assert sum(flips) == to_fail + to_pass

    env = client_env(backend, member)
    diffed = await shipwise("diff", "--candidate", candidate, "--baseline", baseline, env=env)
    assert diffed.code == 0, diffed.stderr
    assert said in diffed.stdout
    assert f"{to_fail + evaluator_only} regressed" in diffed.stdout
    gated = await shipwise("gate", "--candidate", candidate, "--baseline", baseline, env=env)
    assert said in gated.stdout

    link = (await backend.gql(DIFF_LINK, {"c": candidate, "b": baseline}, token=member)).ok()
    async with httpx.AsyncClient(base_url=backend.base_url) as client:
        page = await client.get(link["diffLink"]["url"])
    assert page.status_code == 200
    assert f"{to_fail} pass → fail · {to_pass} fail → pass" in page.text
