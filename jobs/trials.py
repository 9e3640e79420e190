"""One trial: render the cohort's prompt for the case, call its connection, run the checks."""

from __future__ import annotations

from typing import Any

from server.checks import run_checks
from server.comparisons.dispatch_store import DispatchPlan, TrialOutcome, WorkItem
from server.comparisons.models import TrialState
from server.prompting.render import RenderFailed, render_messages
from server.prompting.variables import resolve_variables
from server.providers.base import CallResult, ModelCall
from server.providers.pricing import cost_micros
from server.providers.registry import ProviderPool


def _errored(trial_id: int, code: str, result: CallResult | None = None) -> TrialOutcome:
    return TrialOutcome(
        trial_id=trial_id,
        state=TrialState.ERRORED,
        output=None,
        tool_calls=None,
        input_tokens=result.input_tokens if result else 0,
        output_tokens=result.output_tokens if result else 0,
        cost_micros=0,
        latency_ms=result.latency_ms if result else 0,
        attempts=result.attempts if result else 0,
        error_code=code,
        passed=None,
        score=None,
        check_results=None,
    )


class TrialRunner:
    """Runs trials for the dispatcher; providers are pooled per connection in this process."""

    def __init__(self, providers: ProviderPool) -> None:
        self.providers = providers

    def window(self, plan: DispatchPlan) -> int:
        """Calls to keep in flight: the sum of the distinct connections' maxConcurrency."""
        connections = {c.connection.id: c.connection for c in plan.cohorts.values()}
        for connection in connections.values():
            self.providers.get(connection)
        return sum(c.max_concurrency for c in connections.values())

    async def run(
        self, plan: DispatchPlan, item: WorkItem, trial_id: int, delivery_id: str
    ) -> TrialOutcome:
        comparison = plan.comparison
        cohort = plan.cohorts[item.cohort_index]
        case = plan.cases[item.case_ordinal]
        try:
            messages = render_messages(
                version_id=cohort.prompt_version_id,
                messages=cohort.messages,
                variables=resolve_variables(case, cohort.variables, comparison.variables),
            )
        except RenderFailed as failure:
            return _errored(trial_id, failure.code.value)
        call = ModelCall(
            messages=messages,
            model=cohort.model,
            max_output_tokens=cohort.max_output_tokens,
            temperature=cohort.temperature,
            tools=cohort.tools,
            params=cohort.params,
            trial_header=(
                f"{comparison.id}/{item.cohort_index}/{item.case_ordinal}/{item.trial_index}"
            ),
            delivery_header=delivery_id,
            case_key=case.dataset_item_id,
            expected=case.expected,
        )
        provider = self.providers.get(cohort.connection)
        async with self.providers.limit(cohort.connection.id):
            result = await provider.call(call)
        if result.error is not None:
            return _errored(trial_id, result.error.value, result)
        passed, score, checks = run_checks(
            comparison.checks, result.output, result.tool_calls, case.expected
        )
        return TrialOutcome(
            trial_id=trial_id,
            state=TrialState.COMPLETED,
            output=result.output,
            tool_calls=list(result.tool_calls) or None,
            input_tokens=result.input_tokens,
            output_tokens=result.output_tokens,
            cost_micros=cost_micros(
                result.input_tokens,
                result.output_tokens,
                cohort.connection.input_micros_per_million_tokens,
                cohort.connection.output_micros_per_million_tokens,
            ),
            latency_ms=result.latency_ms,
            attempts=result.attempts,
            error_code=None,
            passed=passed,
            score=score,
            check_results=[c.as_json() for c in checks],
        )


def trial_runner(ctx: dict[str, Any]) -> TrialRunner:
    """The process-wide runner (its provider pool lives in the context from start-up)."""
    return TrialRunner(ctx["providers"])
