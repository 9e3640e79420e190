"""Thin resolvers for runs and run diffs: read the context, call one service, convert."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from server.api.context import Context
from server.api.listing import workspace_connection
from server.api.relay import Connection
from server.api.runs.diff_types import DiffLink, RunDiff
from server.api.runs.types import AppendedRunItems, Run
from server.api.ship_policy_types import ShipPolicyInput
from server.decisions import policy as ship_policy_option
from server.judged_imports import append as judged_append
from server.judged_imports import start as judged_start
from server.runs import alerts, links, service
from server.runs import diff as diffs
from server.runs.items import (
    MAX_EVALUATORS_PER_ITEM,
    MAX_ITEMS_PER_CHUNK,
    MAX_ITEMS_PER_RUN,
    MAX_OUTPUT_CHARS,
)
from server.workspaces.roles import Role

ITEMS_DESCRIPTION = (
    f"At most {MAX_ITEMS_PER_CHUNK:,} items, each {{datasetItemId?, position?, input, "
    "expected?, trials: [{passed?, evaluators? {name: score}, output?, toolCalls? [{name, "
    "arguments}], metrics? {tokens, turns, toolCalls, wallMs, errors, costUsd, "
    "outputTokens}, trajectory? [step], traceId?}]}; a trajectory is the steps an agent took, "
    "each {id?, kind: AGENT|LLM|TOOL|RETRIEVAL|OTHER, name, startedAt?, durationMs?, status? "
    "OK|ERROR, errorType?, provider?, model?, inputMessages?, outputMessages? [{role, "
    "content?, toolCalls? [{id?, name, arguments?}]}], finishReasons?, inputTokens?, "
    "outputTokens?, costCents?, toolName?, toolCallId?, arguments?, result?, parentId?} "
    "(at most 1,000 steps), and fills each metric the trial does not give; `traceId` names "
    "an ingested trace (32 hex digits). At most "
    f"{MAX_EVALUATORS_PER_ITEM} evaluators per item, outputs up to {MAX_OUTPUT_CHARS:,} "
    f"characters, {MAX_ITEMS_PER_RUN:,} items per run. One JSON value, checked by the server; "
    "an invalid item fails the chunk with VALIDATION_FAILED naming `items[i]` (extensions: "
    "index, reason)."
)
POSITION = (
    "Where the chunk's items without a `position` of their own go: this one, the next… "
    "(default: the number of items so far). Items already stored at a position must be "
    "the same (an idempotent retry) or it is CONFLICT."
)


@strawberry.type
class RunQuery:
    @strawberry.field
    async def run(self, info: strawberry.Info[Context], id: strawberry.ID) -> Run:
        actor = info.context.require()
        async with info.context.read() as session:
            row = await service.get(session=session, workspace_id=actor.workspace_id, run_id=id)
        return Run.from_row(row)

    @strawberry.field(description="The workspace's runs, newest first, of one experiment if given.")
    async def runs(
        self,
        info: strawberry.Info[Context],
        experiment_id: strawberry.ID | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> Connection[Run]:
        return await workspace_connection(
            info.context,
            first=first,
            after=after,
            fetch=service.get_page,
            convert=Run.from_row,
            experiment_id=None if experiment_id is None else str(experiment_id),
        )

    @strawberry.field(description="Two COMPLETED runs compared item by item (ε default 0.01).")
    async def run_diff(
        self,
        info: strawberry.Info[Context],
        candidate_run_id: strawberry.ID,
        baseline_run_id: strawberry.ID,
        epsilon: float | None = None,
        policy: ShipPolicyInput | None = None,
    ) -> RunDiff:
        actor = info.context.require()
        spec = policy.to_spec() if policy else None
        if spec is not None:
            ship_policy_option.check(spec, where="policy")
        async with info.context.write() as session:  # it may cache the summary
            summary = await diffs.diff_summary(
                session=session,
                workspace_id=actor.workspace_id,
                candidate_run_id=candidate_run_id,
                baseline_run_id=baseline_run_id,
                epsilon=epsilon,
            )
        return RunDiff.of(summary, policy=spec)


JUDGE_EVALUATOR_DESCRIPTION = (
    "The evaluator whose score is an LLM judge's grade (0.5 or above a pass): its agreement "
    "with human labels is measured (docs/labels.md)."
)


CHECKS = (
    "Checks the server grades each trial's output with, as a comparison's `checks` "
    '(`[{"kind": "CONTAINS"}, {"kind": "TOOL_CALL", "toolName": "search"}]`): against the '
    "item's `expected`, and the trial's `toolCalls` and `trajectory` (`TOOL_CALLED "
    "{toolName, argumentsMatch?}`, `TOOL_ORDER {toolNames}`, `NO_TOOL {toolName}`, "
    "`MAX_STEPS {n}`, `MAX_LLM_CALLS {n}`). A `JUDGE_RUBRIC` check "
    '(`{"kind": "JUDGE_RUBRIC", "rubricVersionId": …, "judgeModelConfigVersionId": …}`) is '
    "graded by a judge call per trial, as in a comparison: counted and priced on the run."
)
BUDGET_CAP = (
    "A cap on what the run's judge calls may spend, in cents: once reached, judging stops "
    "and an append is refused with QUOTA_EXCEEDED (reason BUDGET_CAP)."
)


@strawberry.type
class RunMutation:
    @strawberry.mutation(description="Start (or, with the same key, resume) an imported run.")
    async def start_run_import(
        self,
        info: strawberry.Info[Context],
        experiment_id: strawberry.ID,
        idempotency_key: str,
        metadata: JSON | None = None,
        judge_evaluator: Annotated[
            str | None, strawberry.argument(description=JUDGE_EVALUATOR_DESCRIPTION)
        ] = None,
        checks: Annotated[JSON | None, strawberry.argument(description=CHECKS)] = None,
        budget_cap_cents: Annotated[
            float | None, strawberry.argument(description=BUDGET_CAP)
        ] = None,
    ) -> Run:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await judged_start.start(
                session=session,
                actor=actor,
                experiment_id=experiment_id,
                idempotency_key=idempotency_key,
                metadata=metadata,
                judge_evaluator=judge_evaluator,
                checks=checks,
                budget_cap_cents=budget_cap_cents,
            )
        return Run.from_row(row)

    @strawberry.mutation(description="Append a chunk of items to a RUNNING imported run.")
    async def append_run_items(
        self,
        info: strawberry.Info[Context],
        run_id: strawberry.ID,
        items: Annotated[JSON, strawberry.argument(description=ITEMS_DESCRIPTION)],
        position: Annotated[int | None, strawberry.argument(description=POSITION)] = None,
    ) -> AppendedRunItems:
        actor = info.context.require(Role.MEMBER)
        row, written = await judged_append.append(
            sessionmaker=info.context.app.sessionmaker,
            providers=info.context.app.providers,
            actor=actor,
            run_id=run_id,
            items=items,
            position=position,
        )
        return AppendedRunItems(
            appended_count=written, item_count=row.item_count, run=Run.from_row(row)
        )

    @strawberry.mutation(description="Mark an imported run COMPLETED: it can be diffed.")
    async def complete_run(
        self,
        info: strawberry.Info[Context],
        run_id: strawberry.ID,
        item_count: Annotated[
            int | None,
            strawberry.argument(description="Refuse unless the run holds this many items."),
        ] = None,
    ) -> Run:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await service.complete(
                session=session, actor=actor, run_id=run_id, item_count=item_count
            )
        await alerts.queue_regression_check(
            queue=info.context.app.queue, workspace_id=actor.workspace_id, run_id=row.id
        )
        return Run.from_row(row)

    @strawberry.mutation(description="Mark an imported run FAILED: never diffed; its key is free.")
    async def fail_run(
        self,
        info: strawberry.Info[Context],
        run_id: strawberry.ID,
        error_code: str | None = None,
    ) -> Run:
        actor = info.context.require(Role.MEMBER)
        async with info.context.write() as session:
            row = await service.fail(
                session=session, actor=actor, run_id=run_id, error_code=error_code
            )
        return Run.from_row(row)

    @strawberry.mutation(description="A signed link to the diff page, valid for the hours given.")
    async def diff_link(
        self,
        info: strawberry.Info[Context],
        candidate_run_id: strawberry.ID,
        baseline_run_id: strawberry.ID,
        expires_in_hours: int = links.DEFAULT_HOURS,
    ) -> DiffLink:
        actor = info.context.require(Role.MEMBER)
        async with info.context.read() as session:
            url, expires_at = await links.create_diff_link(
                session=session,
                actor=actor,
                secret=info.context.settings.resolved_secret_key(),
                candidate_run_id=candidate_run_id,
                baseline_run_id=baseline_run_id,
                expires_in_hours=expires_in_hours,
            )
        return DiffLink(url=url, expires_at=expires_at)
