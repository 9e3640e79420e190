"""`evaluate()`: a task run over a dataset version into a run, diffed and decided."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlencode

from shipwise import api, capabilities, runner, tracing
from shipwise.cases import selected
from shipwise.checks import Check
from shipwise.checks import specs as check_specs
from shipwise.errors import UnsupportedError, ValidationError
from shipwise.policy import ShipPolicy
from shipwise.progress import Progress
from shipwise.result import Decision, EvaluationResult
from shipwise.transport import Transport
from shipwise.trial import Scorer, Task

CheckLike = Check | str | Mapping[str, Any]


def portal_url(base: str, experiment_id: str, run_id: str, baseline: str | None) -> str:
    if baseline is None:
        return f"{base}/experiments/{experiment_id}"
    query = urlencode({"candidate": run_id, "baseline": baseline})
    return f"{base}/experiments/{experiment_id}/diff?{query}"


async def previous_run(transport: Transport, experiment_id: str, run_id: str) -> str | None:
    """The experiment's last COMPLETED run created before this one."""
    seen = False
    fallback = None
    async for run in api.runs(transport, experiment_id):
        if run["id"] == run_id:
            seen = True
        elif run["status"] == "COMPLETED":
            if seen:
                return str(run["id"])
            fallback = fallback or str(run["id"])
    return None if seen else fallback


def _scorers(scorers: Mapping[str, Scorer] | None) -> dict[str, Scorer]:
    found = dict(scorers or {})
    for name, scorer in found.items():
        if not isinstance(name, str) or not name or not callable(scorer):
            raise ValidationError(
                "scorers must map names to callables (input, output, expected) -> float | bool",
                extensions={"field": "scorers"},
            )
    return found


async def aevaluate(
    transport: Transport,
    task: Task,
    dataset: str,
    experiment: str,
    trials: int = 1,
    concurrency: int = 8,
    split: str | None = "DEV",
    sample: int | None = None,
    checks: Iterable[CheckLike] | None = None,
    scorers: Mapping[str, Scorer] | None = None,
    baseline: str | None = "previous",
    policy: ShipPolicy | None = None,
    *,
    version: str | None = None,
    sample_seed: int = 0,
    idempotency_key: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    progress: bool | None = None,
) -> EvaluationResult:
    """`Client.aevaluate`'s work, on an open transport (`shipwise.client` adds the rest)."""
    runner.check_arguments(trials, concurrency, sample, split)
    if not callable(task):
        raise ValidationError("task must be a callable (input) -> str | dict",
                              extensions={"field": "task"})  # fmt: skip
    chosen_scorers = _scorers(scorers)
    specs = check_specs(checks) if checks is not None else None
    caps = await capabilities.read(transport)
    if specs and not caps.import_checks:
        raise UnsupportedError(
            "this server does not grade checks on imported runs (startRunImport has no "
            "`checks`); upgrade shipwise, or use scorers=",
            extensions={"field": "checks"},
        )
    if policy is not None and not caps.diff_policy:
        raise UnsupportedError(
            "this server takes no ship policy on runDiff; upgrade shipwise",
            extensions={"field": "policy"},
        )
    found = await api.dataset_version(transport, dataset, version)
    total = found.counts[split]
    if sample is not None:
        total = min(total, sample)
    if total == 0:
        raise ValidationError(
            f"dataset version {found.id} has no {split or ''} cases".replace("  ", " "),
            extensions={"field": "split"},
        )
    meta = {
        "sdk": {"name": "shipwise-client", "version": runner.SDK_VERSION},
        "dataset": {"id": found.dataset_id, "versionId": found.id, "number": found.number},
        "split": split, "trials": trials, "sample": sample,
        "task": getattr(task, "__qualname__", type(task).__name__),
        **dict(metadata or {}),
    }  # fmt: skip
    state = runner.RunState(experiment, idempotency_key or runner.new_key(), meta, specs or None)
    await runner.resume_point(transport, state, explicit_key=idempotency_key is not None)
    if caps.trajectories:
        tracing.install()  # each trial's spans become its trajectory, with OpenTelemetry
    plan = runner.Plan(
        task, chosen_scorers, trials, concurrency,
        graded_by_server=bool(specs), send_tool_calls=caps.import_checks,
        send_trajectory=caps.trajectories,
    )  # fmt: skip
    counters = runner.Counters()
    if state.status != "COMPLETED":
        pending = (total - len(state.stored)) * trials
        bar = Progress(pending, enabled=progress)
        cases = selected(transport, found.id, split, sample, sample_seed)
        counters = await runner.run_cases(transport, plan, state, cases, bar)
        run_id = await runner.ensure_started(transport, state)
        await api.complete(transport, run_id, total)
    run_id = await runner.ensure_started(transport, state)
    assert state.experiment_id is not None
    return await _result(
        transport, caps, state.experiment_id, run_id, baseline, policy, total, trials, counters,
        resumed=len(state.stored),
    )  # fmt: skip


async def _result(
    transport: Transport,
    caps: capabilities.Capabilities,
    experiment_id: str,
    run_id: str,
    baseline: str | None,
    policy: ShipPolicy | None,
    total: int,
    trials: int,
    counters: runner.Counters,
    *,
    resumed: int,
) -> EvaluationResult:
    baseline_id = baseline
    if baseline == "previous":
        baseline_id = await previous_run(transport, experiment_id, run_id)
    diff = None
    decision = None
    if baseline_id is not None:
        diff = await api.run_diff(
            transport, run_id, baseline_id,
            decision_selection=caps.decision_selection,
            policy=policy.as_input() if policy is not None else None,
        )  # fmt: skip
        raw = diff.pop("decision", None)
        decision = Decision.from_api(raw) if raw else None
    return EvaluationResult(
        run_id=run_id,
        experiment_id=experiment_id,
        url=portal_url(transport.url, experiment_id, run_id, baseline_id),
        item_count=total,
        trial_count=total * trials,
        failed_trials=counters.failed,
        task_calls=counters.calls,
        resumed_items=resumed,
        baseline_run_id=baseline_id,
        diff=diff,
        decision=decision,
    )


def in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


async def upload(
    transport: Transport,
    *,
    experiment: str,
    version: api.Version,
    items: list[dict[str, Any]],
    key: str,
    checks: Iterable[CheckLike] | None,
    baseline: str | None,
    policy: ShipPolicy | None,
    metadata: Mapping[str, Any],
) -> EvaluationResult:
    """Items already run (by the pytest plugin) as one completed run, diffed and decided."""
    specs = check_specs(checks) if checks is not None else None
    caps = await capabilities.read(transport)
    if specs and not caps.import_checks:
        raise UnsupportedError(
            "this server does not grade checks on imported runs; upgrade shipwise",
            extensions={"field": "checks"},
        )
    meta = {
        "sdk": {"name": "shipwise-client", "version": runner.SDK_VERSION},
        "dataset": {"id": version.dataset_id, "versionId": version.id, "number": version.number},
        **dict(metadata),
    }
    state = runner.RunState(experiment, key, meta, specs or None)
    state.experiment_id = await api.find_experiment(transport, experiment)
    run_id = await runner.ensure_started(transport, state)
    for start in range(0, len(items), runner.CHUNK):
        await api.append(transport, run_id, items[start : start + runner.CHUNK])
    await api.complete(transport, run_id, len(items))
    assert state.experiment_id is not None
    trials = max((len(item["trials"]) for item in items), default=0)
    counters = runner.Counters(
        calls=sum(len(item["trials"]) for item in items),
        failed=sum(
            1 for item in items for t in item["trials"] if t.get("metrics", {}).get("errors")
        ),
        items=len(items),
    )
    return await _result(
        transport, caps, state.experiment_id, run_id, baseline, policy, len(items), trials,
        counters, resumed=0,
    )  # fmt: skip
