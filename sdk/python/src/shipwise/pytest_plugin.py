"""The pytest plugin (entry point `pytest11`): dataset cases as tests, one run per session.

```python
@pytest.mark.shipwise(dataset="Capital cities", experiment="support-bot", trials=1)
def test_capitals(shipwise_case):
    answer = my_agent(shipwise_case.input)
    shipwise_case.record(answer, metrics={"tokens": 42})
    assert shipwise_case.expected in answer
```

A marked test runs once per case (and trial) of the dataset's latest sealed version; a
trial passes when the test passes (unless `checks=` are given: the server grades them).
At the session's end the recorded trials go up as one run of the experiment, diffed
against `baseline` (default: the experiment's previous completed run); `--shipwise-gate`
fails the session unless the decision is `SHIP`. Without a marked test the plugin does
nothing: no option is required and nothing is sent.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest

from shipwise import api, trial
from shipwise.client import Client
from shipwise.errors import ShipwiseError
from shipwise.evaluation import upload
from shipwise.policy import ShipPolicy
from shipwise.result import EvaluationResult

T = TypeVar("T")
MARKER = "shipwise(dataset, experiment, trials=1, split='DEV', sample=None, version=None, " \
    "checks=None, baseline='previous', policy=None): run the test once per dataset case " \
    "and upload the trials as one shipwise run at the session's end"  # fmt: skip


def _blocking(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to its end on a fresh loop in a thread of its own (safe under any
    event loop a test plugin may be running)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


@dataclass
class Group:
    """One (experiment, dataset version): its cases and the trials recorded for them."""

    experiment: str
    version: api.Version
    cases: list[dict[str, Any]]
    trials: int
    options: dict[str, Any]
    owner: str
    recorded: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)

    def items(self) -> list[dict[str, Any]]:
        found = []
        for position, case in enumerate(self.cases):
            trials = [self.recorded[(position, t)] for t in range(self.trials)
                      if (position, t) in self.recorded]  # fmt: skip
            if trials:
                item = {"datasetItemId": case["datasetItemId"], "position": position,
                        "input": case["input"], "trials": trials}  # fmt: skip
                if self.options.get("checks"):  # the server's checks read the expected
                    item["expected"] = case.get("expected")
                found.append(item)
        return found


class ShipwiseCase:
    """The case a test runs: `input`, `expected`, `dataset_item_id`, `trial`, and
    `record(output, metrics=…, tool_calls=…)`."""

    def __init__(self, group: Group, position: int, trial_index: int) -> None:
        self._group = group
        case = group.cases[position]
        self.position = position
        self.trial = trial_index
        self.dataset_item_id: str = case["datasetItemId"]
        self.input: Any = case["input"]
        self.expected: Any = case.get("expected")
        self.tags: list[str] = list(case.get("tags") or [])
        self.answer: dict[str, Any] | None = None

    def record(
        self,
        output: Any,
        *,
        metrics: dict[str, float] | None = None,
        tool_calls: list[dict[str, Any]] | None = None,
    ) -> None:
        """What the code under test answered for this case (a str or any JSON value);
        TaskOutputError, failing the test, for anything JSON cannot hold."""
        answer = {"output": output, "metrics": dict(metrics or {}),
                  "toolCalls": list(tool_calls or []), "passed": None}  # fmt: skip
        trial.build(answer, 0.0, {}, {}, graded_by_server=True, send_tool_calls=True)
        self.answer = answer

    def finish(self, report: pytest.TestReport) -> None:
        graded_by_server = bool(self._group.options.get("checks"))
        wall_ms = report.duration * 1000
        if self.answer is None and report.failed:
            result = trial.failed(
                AssertionError(_crash_message(report)), wall_ms, graded_by_server=graded_by_server
            )
        else:
            answer = self.answer or {"output": None}
            metrics = {"wallMs": round(wall_ms, 3), **answer.get("metrics", {})}
            result = trial.build(
                {**answer, "metrics": metrics, "passed": None}, metrics["wallMs"], {}, {},
                graded_by_server=graded_by_server, send_tool_calls=graded_by_server,
            )  # fmt: skip
            if answer.get("output") is None:
                del result["output"]
            if not graded_by_server:
                result["passed"] = report.passed
        self._group.recorded[(self.position, self.trial)] = result


def _crash_message(report: pytest.TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    message = getattr(crash, "message", None)
    return str(message) if message else "the test failed"


class Store:
    """The session's groups, the cases loaded at collection and the runs uploaded."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, str], Group] = {}
        self.results: list[EvaluationResult] = []
        self.errors: list[str] = []
        self._client: Client | None = None

    def client(self) -> Client:
        if self._client is None:
            self._client = Client()
        return self._client

    def group(self, marker: pytest.Mark, owner: str) -> Group:
        options = dict(marker.kwargs)
        dataset, experiment = options.pop("dataset", None), options.pop("experiment", None)
        if not isinstance(dataset, str) or not isinstance(experiment, str):
            raise pytest.UsageError(
                f"{owner}: @pytest.mark.shipwise needs dataset= and experiment="
            )
        try:
            client = self.client()
        except ShipwiseError as exc:
            raise pytest.UsageError(f"{owner}: shipwise: {exc}") from None

        async def load() -> tuple[api.Version, list[dict[str, Any]]]:
            from shipwise.cases import selected

            async with client.transport() as transport:
                version = await api.dataset_version(transport, dataset, options.get("version"))
                cases = selected(
                    transport, version.id, options.get("split", "DEV"), options.get("sample"),
                    int(options.get("sample_seed", 0)),
                )  # fmt: skip
                return version, [case async for _, case in cases]

        try:
            version, cases = _blocking(load)
        except ShipwiseError as exc:
            raise pytest.UsageError(f"{owner}: shipwise: {exc}") from None
        key = (experiment, version.id)
        found = self.groups.get(key)
        if found is not None and found.owner != owner:
            raise pytest.UsageError(
                f"{owner} and {found.owner} both evaluate {dataset!r} into {experiment!r}: "
                "one test per dataset and experiment"
            )
        trials = int(options.get("trials", 1))
        group = Group(experiment, version, cases, trials, options, owner)
        self.groups[key] = group
        return group

    def upload_all(self) -> None:
        client = self.client()
        for group in self.groups.values():
            items = group.items()
            if not items:
                continue

            async def send(
                group: Group = group, items: list[dict[str, Any]] = items
            ) -> EvaluationResult:
                policy = group.options.get("policy")
                async with client.transport() as transport:
                    return await upload(
                        transport, experiment=group.experiment, version=group.version,
                        items=items, key=f"pytest-{uuid.uuid4().hex}",
                        checks=group.options.get("checks"),
                        baseline=group.options.get("baseline", "previous"),
                        policy=policy if isinstance(policy, ShipPolicy) else None,
                        metadata={"pytest": {"test": group.owner}, "trials": group.trials},
                    )  # fmt: skip

            try:
                self.results.append(_blocking(send))
            except ShipwiseError as exc:
                self.errors.append(f"{group.owner}: {exc}")


STORE = pytest.StashKey[Store]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("shipwise")
    group.addoption(
        "--shipwise-gate",
        action="store_true",
        default=False,
        help="fail the session unless every shipwise run's decision is SHIP",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARKER)
    config.stash[STORE] = Store()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("shipwise")
    if marker is None:
        return
    owner = metafunc.definition.nodeid
    if "shipwise_case" not in metafunc.fixturenames:
        raise pytest.UsageError(f"{owner}: a @pytest.mark.shipwise test takes `shipwise_case`")
    group = metafunc.config.stash[STORE].group(marker, owner)
    params = [(group, p, t) for p in range(len(group.cases)) for t in range(group.trials)]
    ids = [
        group.cases[p]["datasetItemId"] + (f"-t{t}" if group.trials > 1 else "")
        for _, p, t in params
    ]
    metafunc.parametrize("shipwise_case", params, ids=ids, indirect=True)


@pytest.fixture
def shipwise_case(request: pytest.FixtureRequest) -> ShipwiseCase:
    """The dataset case this run of a @pytest.mark.shipwise test evaluates."""
    param = getattr(request, "param", None)
    if param is None:
        raise pytest.UsageError(
            "shipwise_case is for tests marked @pytest.mark.shipwise(dataset=…, experiment=…)"
        )
    group, position, trial_index = param
    return ShipwiseCase(group, position, trial_index)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    if call.when != "call":
        return
    case = getattr(item, "funcargs", {}).get("shipwise_case")
    if isinstance(case, ShipwiseCase):
        case.finish(outcome.get_result())


def pytest_sessionfinish(session: pytest.Session) -> None:
    store = session.config.stash.get(STORE, None)
    if store is None or not store.groups:
        return
    store.upload_all()
    gate = session.config.getoption("--shipwise-gate")
    blocked = bool(store.errors) or (
        gate and any(r.decision is None or r.decision.outcome != "SHIP" for r in store.results)
    )
    if blocked:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    store = config.stash.get(STORE, None)
    if store is None or not store.groups:
        return
    write = terminalreporter.write_line
    terminalreporter.section("shipwise")
    for result in store.results:
        write(f"run {result.run_id}: {result.item_count} items, {result.failed_trials} failed "
              f"trials; {result.url}")  # fmt: skip
        if result.decision is not None:
            write(f"decision: {result.decision.outcome}: {result.decision.sentence or ''}")
        elif result.baseline_run_id is None:
            write("decision: none (no baseline run to compare with)")
        else:
            write("decision: none (the server gives no decision on run diffs)")
        if result.diff is not None:
            write("diff: " + json.dumps(
                {k: result.diff["summary"][k] for k in ("regressedCount", "improvedCount",
                                                        "passRateDelta", "significant")}
            ))  # fmt: skip
    for error in store.errors:
        write(f"upload failed: {error}", red=True)
    if config.getoption("--shipwise-gate"):
        results = store.results
        passed = (
            not store.errors
            and bool(results)
            and all(r.decision is not None and r.decision.outcome == "SHIP" for r in results)
        )
        write("shipwise gate: " + ("PASS (SHIP)" if passed else "FAIL (the decision is not SHIP)"),
              green=passed, red=not passed)  # fmt: skip
