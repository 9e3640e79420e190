"""Provider faults: a run completes with failed-or-missing trials counted apart (bounded
codes, never quality fails), and provider text reaches no API response and no log line.

Dispatch's provider timeout is `tests.conftest.PROVIDER_TIMEOUT_SECONDS` on both backends.
"""

from __future__ import annotations

import json
import logging
import re
import traceback
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import PROVIDER_TEXT, Behaviour, FakeOpenAI, RecordedRequest
from server.providers.base import DispatchError
from server.workspaces.roles import Role
from tests.conftest import PROVIDER_TIMEOUT_SECONDS
from tests.server.comparisons.documents import GET, LIST
from tests.server.dispatch.api import (
    chat_requests,
    create,
    deliveries_per_trial,
    openai_setup,
    start,
    trial_rows,
    trials_of,
    wait_terminal,
)

TOO_SLOW = PROVIDER_TIMEOUT_SECONDS + 0.5


def _right_answer(body: dict[str, Any]) -> str:
    """The expected answer of the case the prompt asks about ("What is 003 + 003?" → "6")."""
    question = str(body["messages"][-1]["content"])
    a, b = (int(n) for n in re.findall(r"(\d+) \+ (\d+)", question)[0])
    return str(a + b)


FAULTS = (
    # (behaviours for consecutive requests, the trial's error code or None, attempts)
    ((Behaviour(status=500), Behaviour(reply=_right_answer)), None, 2),
    ((Behaviour(status=500),) * 3, DispatchError.PROVIDER_SERVER_ERROR, 3),
    ((Behaviour(status=429, retry_after="1"), Behaviour(reply=_right_answer)), None, 2),
    ((Behaviour(status=429, retry_after="0"),) * 3, DispatchError.PROVIDER_RATE_LIMITED, 3),
    ((Behaviour(delay_seconds=TOO_SLOW),) * 3, DispatchError.PROVIDER_TIMEOUT, 3),
    ((Behaviour(malformed=True),), DispatchError.PROVIDER_MALFORMED_RESPONSE, 1),
    ((Behaviour(stall_seconds=0.3, reply=_right_answer),), None, 1),
    ((Behaviour(body={"error": PROVIDER_TEXT}),), DispatchError.PROVIDER_MALFORMED_RESPONSE, 1),
    ((Behaviour(status=400),), DispatchError.PROVIDER_CLIENT_ERROR, 1),
)


def _by_trial(requests: list[RecordedRequest]) -> dict[str, list[RecordedRequest]]:
    grouped: dict[str, list[RecordedRequest]] = defaultdict(list)
    for request in requests:
        grouped[request.headers["x-shipwise-trial"]].append(request)
    return grouped


async def test_faults_are_retried_then_counted_apart_and_the_run_completes(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    # One call at a time, so the queued behaviours meet consecutive attempts of one trial.
    setup = await openai_setup(backend, fake_openai, ws, cases=8, max_concurrency=1)
    fake_openai.behaviour = Behaviour(reply=_right_answer)
    fake_openai.enqueue(*(b for behaviours, _, _ in FAULTS for b in behaviours))
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=1))
    await start(backend, member, comparison_id)
    ended = await wait_terminal(backend, member, comparison_id)

    assert (ended["status"], ended["stopReason"], ended["errorCode"]) == ("DONE", "COMPLETED", None)
    trials = await trials_of(backend, comparison_id)
    assert len(trials) == ended["progress"]["doneCalls"] == 16
    errored = [t for t in trials if t.state == "ERRORED"]
    assert ended["progress"]["failedCalls"] == len(errored)
    assert Counter(t.error_code for t in errored) == Counter(
        code.value for _, code, _ in FAULTS if code is not None
    )
    assert {t.error_code for t in errored} <= {code.value for code in DispatchError}
    # Failed-or-missing, never a quality fail: no verdict on them, and no spend.
    assert all(t.passed is None and t.score is None and t.cost_micros == 0 for t in errored)
    assert all(t.passed is True for t in trials if t.state == "COMPLETED")
    assert [c["passRate"] for c in ended["cohorts"]] == [1.0, 1.0]

    # Attempts as planned, each trial sent by one delivery, the first nine trials in order.
    requests = chat_requests(fake_openai, comparison_id)
    grouped = _by_trial(requests)
    assert all(len(d) == 1 for d in deliveries_per_trial(fake_openai, comparison_id).values())
    header = {
        t.id: f"{comparison_id}/{t.cohort_index}/{t.case_ordinal}/{t.trial_index}" for t in trials
    }
    assert all(len(grouped[header[t.id]]) == t.attempts for t in trials)
    first_headers = list(dict.fromkeys(r.headers["x-shipwise-trial"] for r in requests))
    for trial_header, (_, code, attempts) in zip(first_headers, FAULTS, strict=False):
        row = next(t for t in trials if header[t.id] == trial_header)
        assert (row.error_code, row.attempts) == (code.value if code else None, attempts)
    # Retry-After: 1 is honoured (longer than the first backoff of 0.5 s).
    retried_429 = grouped[first_headers[2]]
    assert retried_429[1].received_at - retried_429[0].received_at >= 0.95


async def test_provider_text_reaches_no_response_and_no_log_line(
    backend: Backend,
    fake_openai: FakeOpenAI,
    caplog: pytest.LogCaptureFixture,
    session_tmp: Path,
) -> None:
    worker_log = session_tmp / "worker.log"
    log_offset = worker_log.stat().st_size if worker_log.exists() else 0
    caplog.set_level(logging.DEBUG)
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(backend, fake_openai, ws, cases=4, max_concurrency=4)
    # Every error body (and every answer's X-Fake-Provider header) carries PROVIDER_TEXT.
    fake_openai.behaviour = Behaviour(status=500)
    fake_openai.enqueue(
        Behaviour(status=400),
        Behaviour(status=401),
        Behaviour(status=429, retry_after="0"),
        Behaviour(body={"error": {"message": PROVIDER_TEXT}}),
        Behaviour(status=200),
    )
    member, owner = ws.tokens[Role.MEMBER], ws.owner
    comparison_id = await create(backend, member, setup.input(trialsPerCase=1))
    responses = [await backend.client.post("/graphql", json={"query": "{ me { role } }"})]
    started = await start(backend, member, comparison_id, background=False)
    assert started["status"] == "DONE"
    rows = await trial_rows(backend, comparison_id)
    assert rows.get("ERRORED", 0) >= 6 and started["progress"]["failedCalls"] == rows["ERRORED"]

    for document, variables, token in (
        (GET, {"id": comparison_id}, member),
        (LIST, {}, member),
        (
            "{ auditEvents(first: 100) { edges { node { action targetId details } } } }",
            {},
            owner,
        ),
        ("{ modelConnections { edges { node { status monthToDateSpentCents } } } }", {}, owner),
    ):
        response = await backend.client.post(
            "/graphql",
            json={"query": document, "variables": variables},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert not response.json().get("errors"), response.text
        responses.append(response)
    for response in responses:
        assert PROVIDER_TEXT not in response.text
        assert "fake-provider-text" not in response.text

    for record in caplog.records:
        assert "fake-provider-text" not in _everything_in(record), record.name
    if backend.name == "sqlite":  # dispatch ran in this process
        codes = {getattr(r, "error_code", None) for r in caplog.records}
        assert "provider_server_error" in codes, "the faults were logged, by code"
    else:  # dispatch ran in the session's worker process
        with open(worker_log, "rb") as log:
            log.seek(log_offset)
            lines = log.read().decode(errors="replace")
        assert "provider_server_error" in lines, "the worker logged the faults by code"
        assert "fake-provider-text" not in lines


def _everything_in(record: logging.LogRecord) -> str:
    """The record's message, its arguments and extras, and any traceback, as text."""
    parts = [record.getMessage(), json.dumps(record.__dict__, default=repr)]
    if record.exc_info and record.exc_info[1] is not None:
        parts.append("".join(traceback.format_exception(record.exc_info[1])))
    return "\n".join(parts)
