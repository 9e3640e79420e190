"""`playgroundRun`: every pane called on the same input (or on a dataset's first cases),
streamed, counted against each connection's monthly cap, recorded as spend, audited.

The request checks everything before any call (MEMBER; 1 to 4 panes; each pane's version or
draft, connection and parameters; the input's length; every connection's cap) and audits
`playground.run` with the panes' connections, models and versions, never the prompt's or the
input's text. The calls then run in this process (`server.playground.runs`); each call first
reads its connection's ledger, so a cap reached mid-run stops the calls after it, in the
comparison caps' words; each recorded call adds its cost to the ledger.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.assets.models import Asset, AssetKind, AssetVersion, VersionState
from server.audit import service as audit
from server.checks.evaluate import run_checks
from server.checks.spec import CheckKind
from server.connections.models import ModelConnection
from server.datasets.models import DatasetCase, Split
from server.errors import NotFound, QuotaExceeded, ValidationFailed
from server.money import micros_dollars
from server.playground.gate_settings import gate_checks
from server.playground.panes import Pane, PaneSpec, resolve_pane
from server.playground.runs import (
    RUNS,
    Cell,
    CellStatus,
    CheckOutcome,
    PlaygroundRunState,
    RunStatus,
)
from server.prompting.render import RenderFailed, render_messages
from server.prompting.variables import default_mapping, resolve_field
from server.providers.base import CallResult, ModelCall
from server.providers.pricing import call_cost, estimate_input_tokens, estimate_tokens
from server.providers.streaming import StreamingCaller
from server.spend import ledgers
from server.spend.models import PlaygroundCall
from server.workspaces.roles import Actor, Role

logger = logging.getLogger("shipwise.playground")

MAX_PANES = 4
MAX_INPUT_CHARS = 20_000
MAX_CASES = 5

ERROR_WORDS = {
    "provider_timeout": "The provider did not answer in time.",
    "provider_rate_limited": "The provider refused the call: too many requests. Try again.",
    "provider_server_error": "The provider failed to answer (a server error). Try again.",
    "provider_client_error": "The provider refused the call (check the model name and the key).",
    "provider_unreachable": "The provider could not be reached.",
    "provider_malformed_response": "The provider's answer could not be read.",
    "simulated_error": "The simulated connection failed this call, as it was set to.",
    "connection_not_ready": "The connection is not ready: an owner or admin can check it in "
    "Settings, Model connections.",
    "template_render_failed": "The template could not be filled with these variables.",
}


@dataclass(frozen=True, slots=True)
class RunSpec:
    panes: Sequence[PaneSpec]
    variables: Any = None
    dataset_id: str | None = None
    case_count: int = MAX_CASES


@dataclass(frozen=True, slots=True)
class Case:
    item_id: str | None
    input: Any
    expected: Any = None


@dataclass(frozen=True, slots=True)
class Plan:
    """What the run calls: every pane on every case, with the messages already rendered."""

    panes: list[Pane]
    cases: list[Case]
    rendered: dict[tuple[int, int], list[dict[str, Any]] | None] = field(default_factory=dict)


def cap_words(connection: ModelConnection) -> str:
    """The comparison caps' words (web/src/pages/comparison/stopWords.ts)."""
    cap = micros_dollars(connection.monthly_cap_micros or 0)
    return f"Stopped: {connection.name} reached its monthly cap of {cap}."


def _check_input(variables: Any) -> dict[str, Any]:
    if variables is None:
        return {}
    if not isinstance(variables, dict):
        raise ValidationFailed("The input must be an object of variable values.", field="variables")
    size = len(json.dumps(variables, ensure_ascii=False, default=str))
    if size > MAX_INPUT_CHARS:
        raise ValidationFailed(
            f"The input is too long: {size:,} characters. The Playground takes at most "
            f"{MAX_INPUT_CHARS:,}.",
            field="variables",
        )
    return variables


async def _cases(
    session: AsyncSession, workspace_id: str, dataset_id: str, count: int
) -> list[Case]:
    if not 1 <= count <= MAX_CASES:
        raise ValidationFailed(f"Run on 1 to {MAX_CASES} cases at a time.", field="caseCount")
    version = await session.scalar(
        select(AssetVersion)
        .join(Asset, Asset.id == AssetVersion.asset_id)
        .where(
            Asset.id == dataset_id,
            Asset.kind == AssetKind.EVALUATION_SUITE,
            Asset.workspace_id == workspace_id,
            AssetVersion.state == VersionState.SEALED,
        )
        .order_by(AssetVersion.number.desc())
        .limit(1)
    )
    if version is None:
        raise ValidationFailed(
            "That dataset is not one of this workspace's, or it has no sealed version.",
            field="datasetId",
        )
    rows = (
        await session.execute(
            select(DatasetCase)
            .where(DatasetCase.dataset_version_id == version.id, DatasetCase.split == Split.DEV)
            .order_by(DatasetCase.ordinal)
            .limit(count)
        )
    ).scalars()
    cases = [Case(r.dataset_item_id, r.input, r.expected) for r in rows]
    if not cases:
        raise ValidationFailed("That dataset has no Dev cases to run.", field="datasetId")
    return cases


def _values(pane: Pane, case: Case, typed: dict[str, Any]) -> dict[str, Any]:
    if case.item_id is None:
        return typed
    values = {}
    for variable in pane.variables:
        found, value = resolve_field(
            case.input, case.expected, default_mapping(variable, case.input)
        )
        if found:
            values[variable] = value
    return values


def _render(plan: Plan, typed: dict[str, Any]) -> None:
    for pane in plan.panes:
        for ci, case in enumerate(plan.cases):
            try:
                plan.rendered[(pane.index, ci)] = render_messages(
                    version_id=pane.template_key,
                    messages=pane.messages,
                    variables=_values(pane, case, typed),
                )
            except RenderFailed:
                if case.item_id is None:
                    missing = [v for v in pane.variables if v not in typed]
                    need = f" Fill {', '.join(missing)}." if missing else ""
                    raise ValidationFailed(
                        f"Pane {pane.index + 1}: the template could not be filled with this "
                        f"input.{need}",
                        field=f"panes[{pane.index}].messages",
                    ) from None
                plan.rendered[(pane.index, ci)] = None  # that case's cell says so


async def _check_caps(session: AsyncSession, panes: Sequence[Pane]) -> None:
    capped = {
        p.connection.id: p.connection for p in panes if p.connection.monthly_cap_micros is not None
    }
    if not capped:
        return
    spent = await ledgers.connection_month(session, capped, now=datetime.now(UTC))
    for cid, connection in sorted(capped.items()):
        if spent[cid] >= (connection.monthly_cap_micros or 0):
            raise QuotaExceeded(cap_words(connection), connectionId=cid)


async def prepare(*, session: AsyncSession, actor: Actor, spec: RunSpec, run_id: str) -> Plan:
    """Every check before a call, and the audit event, in the caller's transaction."""
    actor.require(Role.MEMBER)
    if not 1 <= len(spec.panes) <= MAX_PANES:
        raise ValidationFailed(f"A session holds 1 to {MAX_PANES} panes.", field="panes")
    typed = _check_input(spec.variables)
    panes = [
        await resolve_pane(session, actor.workspace_id, index, pane)
        for index, pane in enumerate(spec.panes)
    ]
    cases = (
        await _cases(session, actor.workspace_id, spec.dataset_id, spec.case_count)
        if spec.dataset_id is not None
        else [Case(None, typed)]
    )
    plan = Plan(panes, cases)
    _render(plan, typed)
    await _check_caps(session, panes)
    await audit.record(
        session=session,
        actor=actor,
        action="playground.run",
        target_type="playground_run",
        target_id=run_id,
        details={
            "panes": [
                {
                    "connectionId": p.connection.id,
                    "model": p.model,
                    "promptVersionId": spec.panes[p.index].prompt_version_id,
                    "draft": spec.panes[p.index].prompt_version_id is None,
                }
                for p in panes
            ],
            "datasetId": spec.dataset_id,
            "cases": len(cases) if spec.dataset_id is not None else 0,
        },
    )
    return plan


def new_run(actor: Actor, plan: Plan, run_id: str) -> PlaygroundRunState:
    cells = [
        Cell(
            pane_index=pane.index,
            case_id=case.item_id,
            case_input=case.input,
            expected=case.expected,
        )
        for pane in plan.panes
        for case in plan.cases
    ]
    run = PlaygroundRunState(id=run_id, workspace_id=actor.workspace_id, cells=cells)
    RUNS.add(run)
    return run


class Runner:
    """Runs a prepared plan's calls: each pane's cells in order, the panes side by side."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        caller: StreamingCaller,
        actor: Actor,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._caller = caller
        self._actor = actor

    def start(self, run: PlaygroundRunState, plan: Plan) -> None:
        width = len(plan.cases)
        for pane in plan.panes:
            cells = [pane.index * width + ci for ci in range(width)]
            run.tasks.append(asyncio.create_task(self._pane(run, plan, pane, cells)))
        run.finisher = asyncio.create_task(self._finish(run))

    async def _finish(self, run: PlaygroundRunState) -> None:
        await asyncio.gather(*run.tasks, return_exceptions=True)
        run.finish(RunStatus.DONE)

    async def _pane(
        self, run: PlaygroundRunState, plan: Plan, pane: Pane, cells: list[int]
    ) -> None:
        for ci, index in enumerate(cells):
            messages = plan.rendered[(pane.index, ci)]
            if messages is None:
                run.update(
                    index,
                    status=CellStatus.FAILED,
                    error_code="template_render_failed",
                    error=ERROR_WORDS["template_render_failed"],
                )
                continue
            await self._cell(run, pane, index, messages)

    async def _cell(
        self, run: PlaygroundRunState, pane: Pane, index: int, messages: list[dict[str, Any]]
    ) -> None:
        async with self._sessionmaker() as session:
            try:
                await _check_caps(session, [pane])
            except QuotaExceeded as exc:
                run.update(
                    index, status=CellStatus.FAILED, error_code="connection_cap", error=exc.message
                )
                return
        run.update(index, status=CellStatus.STREAMING)
        cell = run.cells[index]
        request = ModelCall(
            messages=messages,
            model=pane.model,
            max_output_tokens=pane.max_tokens,
            temperature=pane.temperature,
            trial_header=f"playground/{run.id}/{index}",
            case_key=cell.case_id or "",
            expected=cell.expected,
        )
        try:
            result = await self._caller.call(
                pane.connection, request, lambda text: run.append(index, text)
            )
        except asyncio.CancelledError:
            # Stopped mid-answer: what was asked and what came back so far still cost.
            partial = run.cells[index].output
            await asyncio.shield(
                self._record(
                    run.id,
                    pane.connection,
                    estimate_input_tokens(messages),
                    estimate_tokens(partial),
                )
            )
            raise
        cost = await self._record(
            run.id, pane.connection, result.input_tokens, result.output_tokens
        )
        run.update(index, **_outcome(pane, run.cells[index], result, cost))

    async def _record(
        self, run_id: str, connection: ModelConnection, input_tokens: int, output_tokens: int
    ) -> int:
        cost = call_cost(connection, input_tokens=input_tokens, output_tokens=output_tokens)
        now = datetime.now(UTC)
        async with self._sessionmaker() as session, session.begin():
            session.add(
                PlaygroundCall(
                    workspace_id=self._actor.workspace_id,
                    run_id=run_id,
                    connection_id=connection.id,
                    member_id=self._actor.member_id,
                    input_tokens=input_tokens,
                    output_tokens=output_tokens,
                    cost_micros=cost,
                    recorded_at=now,
                )
            )
            await ledgers.add_connection(session, connection_id=connection.id, micros=cost, now=now)
        return cost


def _outcome(pane: Pane, cell: Cell, result: CallResult, cost: int) -> dict[str, Any]:
    changes: dict[str, Any] = {
        "input_tokens": result.input_tokens,
        "output_tokens": result.output_tokens,
        "cost_micros": cost,
        "latency_ms": result.latency_ms,
    }
    if result.error is not None:
        code = result.error.value
        changes.update(
            status=CellStatus.FAILED,
            error_code=code,
            error=ERROR_WORDS.get(code, "The call failed."),
        )
        return changes
    changes.update(status=CellStatus.DONE, output=result.output or cell.output)
    if cell.case_id is not None:
        specs = [s for s in gate_checks(pane.asset) if s.get("kind") != CheckKind.JUDGE_RUBRIC]
        passed, _score, results = run_checks(specs, result.output, result.tool_calls, cell.expected)
        changes.update(
            passed=passed,
            checks=tuple(CheckOutcome(r.kind.value, r.passed) for r in results),
        )
    return changes


async def stop(*, actor: Actor, run_id: str) -> PlaygroundRunState:
    """Cancel the run's calls in flight; the cells not done read STOPPED."""
    actor.require(Role.MEMBER)
    run = RUNS.get(run_id, actor.workspace_id)
    if run is None:
        raise NotFound("playground run not found")
    for task in run.tasks:
        task.cancel()
    run.finish(RunStatus.STOPPED)
    await asyncio.gather(*run.tasks, return_exceptions=True)
    return run
