"""One trial: render the cohort's prompt for the case, call its connection, grade the output
(`server.judges.rubric_grade`: a JUDGE_RUBRIC check asks the judge's connection for a
structured grade of this output)."""

from __future__ import annotations

from typing import Any

from cachetools import LRUCache

from server.comparisons.models import TrialState
from server.connections.models import ModelConnection
from server.dispatch.outcomes import TrialOutcome
from server.dispatch.plan import CasePlan, CohortPlan, DispatchPlan, WorkItem
from server.judges.rubric_grade import Case, grade_output
from server.prompting.render import RenderFailed, render_messages
from server.prompting.variables import resolve_variables
from server.providers.base import CallResult, DispatchError, ModelCall, Provider
from server.providers.pricing import call_cost
from server.providers.registry import ProviderPool
from server.runtime.slots import RedisSlots
from server.trajectories.hosted import one_call

RENDERS_KEPT = 1024
"""Renders kept for the trials still to come: far more than the cases admitted ahead."""


def _cost(connection: ModelConnection, result: CallResult) -> int:
    """What the call that gave `result` cost (retries' tokens included)."""
    return call_cost(
        connection, input_tokens=result.input_tokens, output_tokens=result.output_tokens
    )


def _errored(trial_id: int, code: str, result: CallResult, cost: int) -> TrialOutcome:
    """Failed-or-missing; what the calls made still cost is kept."""
    return TrialOutcome(
        trial_id=trial_id,
        state=TrialState.ERRORED,
        output=None,
        tool_calls=None,
        input_tokens=result.input_tokens,
        output_tokens=result.output_tokens,
        cost_micros=cost,
        latency_ms=result.latency_ms,
        attempts=result.attempts,
        error_code=code,
        passed=None,
        score=None,
        check_results=None,
    )


class TrialRunner:
    """Runs trials for the dispatcher; providers are pooled per connection in this process."""

    def __init__(self, providers: ProviderPool, slots: RedisSlots | None = None) -> None:
        self.providers = providers
        self.slots = slots
        """Workers share Redis slots so maxConcurrency bounds every worker's calls together."""
        self._rendered: LRUCache[tuple[int, int], list[dict[str, Any]] | RenderFailed] = LRUCache(
            maxsize=RENDERS_KEPT
        )
        """Rendered messages by (cohort, case ordinal), the latest RENDERS_KEPT."""
        self._providers: dict[str, tuple[ModelConnection, Provider]] = {}
        """By connection id, for the plan's connection object: `ProviderPool.get` checks the
        row's fingerprint, which a delivery's plan (read once) cannot change between calls."""

    def _messages(
        self, plan: DispatchPlan, cohort: CohortPlan, case: CasePlan
    ) -> list[dict[str, Any]]:
        """The cohort's prompt rendered for the case, once for all its trials (they are
        admitted together, case-major); raises `RenderFailed`."""
        key = (cohort.index, case.ordinal)
        rendered = self._rendered.get(key)
        if rendered is None:
            values = resolve_variables(case, cohort.variables, plan.comparison.variables)
            try:
                rendered = render_messages(
                    version_id=cohort.prompt_version_id, messages=cohort.messages, variables=values
                )
            except RenderFailed as failure:
                rendered = failure
            self._rendered[key] = rendered
        if isinstance(rendered, RenderFailed):
            raise rendered
        return rendered

    def _provider(self, connection: ModelConnection) -> Provider:
        known = self._providers.get(connection.id)
        if known is not None and known[0] is connection:
            return known[1]
        provider = self.providers.get(connection)
        self._providers[connection.id] = (connection, provider)
        return provider

    def window(self, plan: DispatchPlan) -> int:
        """Trials to keep in flight: the sum of the cohorts' connections' maxConcurrency."""
        connections = {c.connection.id: c.connection for c in plan.cohorts.values()}
        for connection in connections.values():
            self.providers.get(connection)
        for judge in plan.judges.values():
            self.providers.get(judge.connection)
        return sum(c.max_concurrency for c in connections.values())

    async def _call(
        self, connection: ModelConnection, call: ModelCall, *, abandonable: bool = True
    ) -> CallResult:
        """Call within the connection's limits; an abandoned wait raises `SlotWaitAbandoned`
        (nothing sent). A judge's wait is not abandonable: its trial's call was already sent."""
        provider = self._provider(connection)
        async with self.providers.limit(connection.id):
            if self.slots is None:
                return await provider.call(call)
            # The delivery holds the slot: it expires with that delivery's lease.
            async with self.slots.hold(
                f"connection:{connection.id}",
                connection.max_concurrency,
                holder=call.delivery_header,
                abandonable=abandonable,
            ):
                return await provider.call(call)

    async def run(
        self, plan: DispatchPlan, item: WorkItem, trial_id: int, delivery_id: str
    ) -> TrialOutcome:
        comparison = plan.comparison
        cohort = plan.cohorts[item.cohort_index]
        case = plan.cases[item.case_ordinal]
        try:
            messages = self._messages(plan, cohort, case)
        except RenderFailed as failure:
            return TrialOutcome.failed(trial_id, failure.code.value)
        trial_header = f"{comparison.id}/{item.cohort_index}/{item.case_ordinal}/{item.trial_index}"
        result = await self._call(
            cohort.connection,
            ModelCall(
                messages=messages,
                model=cohort.model,
                max_output_tokens=cohort.max_output_tokens,
                temperature=cohort.temperature,
                tools=cohort.tools,
                params=cohort.params,
                trial_header=trial_header,
                delivery_header=delivery_id,
                case_key=case.dataset_item_id,
                expected=case.expected,
            ),
        )
        cost = _cost(cohort.connection, result)
        if result.error is not None:
            return _errored(trial_id, result.error.value, result, cost)
        graded = await grade_output(
            comparison.checks,
            result.output or "",
            result.tool_calls,
            Case(
                input=case.input,
                expected=case.expected,
                case_key=case.dataset_item_id,
                trial_header=trial_header,
                delivery_header=delivery_id,
            ),
            trajectory=one_call(
                model=cohort.model,
                output=result.output,
                tool_calls=result.tool_calls,
                input_tokens=result.input_tokens,
                output_tokens=result.output_tokens,
                latency_ms=result.latency_ms,
            )
            if plan.reads_trajectory
            else None,
            judges=plan.judges,
            call=self._judge_call,
        )
        cost += graded.cost_micros
        if graded.error is not None or graded.results is None:
            code = graded.error or DispatchError.JUDGE_GRADE_UNPARSEABLE
            return _errored(trial_id, code.value, result, cost)
        return TrialOutcome(
            trial_id=trial_id,
            state=TrialState.COMPLETED,
            output=result.output,
            tool_calls=list(result.tool_calls) or None,
            input_tokens=result.input_tokens,
            output_tokens=result.output_tokens,
            cost_micros=cost,
            latency_ms=result.latency_ms,
            attempts=result.attempts,
            error_code=None,
            passed=graded.passed,
            score=graded.score,
            check_results=[c.as_json() for c in graded.results],
        )

    async def _judge_call(self, connection: ModelConnection, call: ModelCall) -> CallResult:
        """A judge's wait is not abandonable: its trial's call was already sent."""
        return await self._call(connection, call, abandonable=False)
