"""Trials a crash left admitted without an outcome: never re-sent, whatever the policy.

They are found per range, when a delivery takes an expired range over (`ranges`): only
that range's admitted trials are the dead holder's.

Under the workspace's `ambiguousOutcomes: COUNT_AS_MISSING` each one closes as ERRORED with
`outcome_ambiguous` (failed-or-missing) and its cost at the bound — max output tokens, input
as characters ÷ 4, judge calls included — marked estimated, so caps stay conservative.
"""

from __future__ import annotations

import json
from typing import cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.checks import CheckKind, judge_key
from server.comparisons import counters
from server.comparisons.models import Trial, TrialState
from server.comparisons.progress import Progress
from server.db import utcnow
from server.dispatch import ranges, store
from server.dispatch.plan import DispatchPlan
from server.prompting.render import RenderFailed, render_messages
from server.prompting.variables import resolve_variables
from server.providers.base import DispatchError
from server.providers.pricing import call_cost, estimate_input_tokens, estimate_tokens


def bound(plan: DispatchPlan, case_ordinal: int, cohort_index: int) -> tuple[int, int, int]:
    """(input tokens, output tokens, micro-dollars) if the trial's calls used their maxima."""
    cohort = plan.cohorts[cohort_index]
    case = plan.cases[case_ordinal]
    values = resolve_variables(case, cohort.variables, plan.comparison.variables)
    try:
        rendered = render_messages(
            version_id=cohort.prompt_version_id, messages=cohort.messages, variables=values
        )
        tokens_in = estimate_input_tokens(rendered)
    except RenderFailed:
        text = "".join(str(m.get("content", "")) for m in cohort.messages)
        tokens_in = estimate_tokens(text + json.dumps(values, default=str))
    tokens_out = cohort.max_output_tokens
    micros = call_cost(cohort.connection, input_tokens=tokens_in, output_tokens=tokens_out)
    for spec in plan.comparison.checks:
        if spec.get("kind") == CheckKind.JUDGE_RUBRIC:
            judge = plan.judges[judge_key(spec)]
            read = estimate_tokens(judge.rubric) + tokens_in + tokens_out
            micros += call_cost(
                judge.connection, input_tokens=read, output_tokens=judge.max_output_tokens
            )
    return tokens_in, tokens_out, micros


_TRIAL = cast(Table, Trial.__table__)
_CLOSE = (
    update(_TRIAL)
    .where(_TRIAL.c.id == bindparam("b_id"), _TRIAL.c.state == TrialState.ADMITTED.value)
    .values(
        state=TrialState.ERRORED.value,
        error_code=DispatchError.TRIAL_OUTCOME_AMBIGUOUS.value,
        input_tokens=bindparam("b_input_tokens"),
        output_tokens=bindparam("b_output_tokens"),
        cost_micros=bindparam("b_cost_micros"),
        cost_estimated=True,
        completed_at=bindparam("b_completed_at"),
    )
)


async def close(session: AsyncSession, *, plan: DispatchPlan, claim: ranges.Claim) -> Progress:
    """Close the admitted trials of the range taken over as `outcome_ambiguous` (one
    transaction; the range row, then the trials, then the comparison row are locked)."""
    comparison_id = plan.comparison.id
    await ranges.lock(session, comparison_id, [claim])
    orphans = (
        await session.execute(
            select(Trial.id, Trial.case_ordinal, Trial.cohort_index).where(
                Trial.comparison_id == comparison_id,
                Trial.state == TrialState.ADMITTED,
                Trial.case_ordinal >= claim.first,
                Trial.case_ordinal < claim.end,
            )
        )
    ).all()
    now = utcnow()
    rows = []
    for trial_id, case_ordinal, cohort_index in orphans:
        tokens_in, tokens_out, micros = bound(plan, int(case_ordinal), int(cohort_index))
        rows.append(
            {
                "b_id": trial_id,
                "b_input_tokens": tokens_in,
                "b_output_tokens": tokens_out,
                "b_cost_micros": micros,
                "b_completed_at": now,
            }
        )
    if rows:
        await session.execute(_CLOSE, rows)
    comparison = await store.lock_row(session, comparison_id)
    return await counters.recompute(session, comparison)
