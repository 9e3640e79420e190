"""What a comparison would run and cost: its calls, the cost bound at max output tokens, and
the preview's warnings and blockers (seed 002's form, docs/domain.md).

Input tokens are estimated as characters ÷ 4 of the rendered messages, on an evenly spread
sample of at most `RENDER_SAMPLE` cases per cohort, scaled up to the whole selection.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from server.comparisons.inputs import ResolvedCohort, ResolvedInput
from server.comparisons.selection import CaseRef, Selection
from server.connections.models import ConnectionStatus, ModelConnection
from server.datasets.models import Split
from server.money import micros_dollars
from server.prompting.render import RenderFailed, render_messages
from server.prompting.variables import (
    MissingFieldPolicy,
    resolve_variables,
)
from server.providers.pricing import call_cost, estimate_input_tokens, estimate_tokens
from server.workspaces.models import Workspace

RENDER_SAMPLE = 500
VERDICT_MIN_CASES = 20
FLIP_MIN_TRIALS = 3
MICROS_PER_DOLLAR = 1_000_000


class WarningCode(StrEnum):
    FEW_TRIALS = "FEW_TRIALS"
    NO_VERDICT = "NO_VERDICT"
    HOLDOUT_LOOKS = "HOLDOUT_LOOKS"
    CASES_LEFT_OUT = "CASES_LEFT_OUT"
    MAY_STOP_EARLY = "MAY_STOP_EARLY"


class BlockerCode(StrEnum):
    ROLE_TOO_LOW = "ROLE_TOO_LOW"
    HOSTED_RUNS_OFF = "HOSTED_RUNS_OFF"
    CONNECTION_NOT_READY = "CONNECTION_NOT_READY"
    SAME_CONFIGURATION = "SAME_CONFIGURATION"
    EMPTY_SELECTION = "EMPTY_SELECTION"
    MISSING_FIELDS = "MISSING_FIELDS"
    OVER_CALL_LIMIT = "OVER_CALL_LIMIT"


@dataclass(frozen=True, slots=True)
class Note:
    """A warning or a blocker: a bounded code and the sentence the form shows."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class CohortCalls:
    index: int
    calls: int
    """Every call made for this cohort, judge calls included."""
    judge_calls: int


def planned_calls(
    *, case_count: int, trials: int, cohorts: int, judge_checks: int, pairwise: bool
) -> list[CohortCalls]:
    """Each cohort's calls: one per case and trial, one more per judge check, and for each
    baseline two pairwise judge calls (both orders) per case and trial."""
    base = case_count * trials
    counts = []
    for index in range(cohorts):
        judge = base * judge_checks + (2 * base if pairwise and index > 0 else 0)
        counts.append(CohortCalls(index, base + judge, judge))
    return counts


def count_calls(resolved: ResolvedInput, case_count: int) -> list[CohortCalls]:
    """`planned_calls` of a resolved input."""
    return planned_calls(
        case_count=case_count,
        trials=resolved.trials_per_case,
        cohorts=len(resolved.cohorts),
        judge_checks=len(resolved.check_judges),
        pairwise=resolved.pairwise is not None,
    )


def _spread(cases: Sequence[CaseRef], limit: int) -> list[CaseRef]:
    """At most `limit` cases spread evenly over `cases`."""
    if len(cases) <= limit:
        return list(cases)
    return [cases[i * len(cases) // limit] for i in range(limit)]


def input_tokens(cohort: ResolvedCohort, case: CaseRef, mapping: dict[str, str]) -> int:
    """Characters ÷ 4 of the cohort's messages rendered for `case` (unrendered if they fail)."""
    messages = cohort.prompt.content["messages"]
    values = resolve_variables(case, cohort.prompt.variables, mapping)
    try:
        rendered = render_messages(version_id=cohort.prompt.id, messages=messages, variables=values)
    except RenderFailed:
        # The call would fail without spending; still bound it by the template and values.
        text = "".join(str(m["content"]) for m in messages) + json.dumps(values, default=str)
        return estimate_tokens(text)
    return estimate_input_tokens(rendered)


def cost_bound(resolved: ResolvedInput, cases: Sequence[CaseRef]) -> list[int]:
    """Each cohort's micro-dollars if every call, judge calls included, uses its max output
    tokens; a judge reads its rubric, the prompt and the answer(s) at their max length."""
    sample = _spread(cases, RENDER_SAMPLE)
    if not sample:
        return [0 for _ in resolved.cohorts]
    tokens = {
        cohort.index: [input_tokens(cohort, case, resolved.variables) for case in sample]
        for cohort in resolved.cohorts
    }
    candidate = resolved.cohorts[0]
    bounds = []
    for cohort in resolved.cohorts:
        micros = 0
        for k, prompt_tokens in enumerate(tokens[cohort.index]):
            per_trial = call_cost(
                cohort.connection,
                input_tokens=prompt_tokens,
                output_tokens=cohort.max_output_tokens,
            )
            for judge in resolved.check_judges:
                read = _rubric_tokens(judge.rubric.content) + prompt_tokens
                per_trial += call_cost(
                    judge.connection,
                    input_tokens=read + cohort.max_output_tokens,
                    output_tokens=_max_out(judge.config),
                )
            pairwise = resolved.pairwise
            if pairwise is not None and cohort.index > 0:
                read = _rubric_tokens(pairwise.rubric.content) + tokens[candidate.index][k]
                answers = candidate.max_output_tokens + cohort.max_output_tokens
                per_trial += 2 * call_cost(
                    pairwise.connection,
                    input_tokens=read + answers,
                    output_tokens=_max_out(pairwise.config),
                )
            micros += per_trial * resolved.trials_per_case
        bounds.append(math.ceil(micros * len(cases) / len(sample)))
    return bounds


def _rubric_tokens(content: dict[str, Any]) -> int:
    return estimate_tokens(str(content.get("text", "")))


def _max_out(config: Any) -> int:
    return int(config.content["maxOutputTokens"])


def dollars(micros: int) -> str:
    """Money for a sentence, by the one rule (`server.money.dollars`): "$1.20", "$0.0016"."""
    return micros_dollars(micros)


def spend_line(connection: ModelConnection, spent_micros: int) -> str:
    """E.g. "my-connection: $3.20 spent of $50.00 this month."."""
    cap = connection.monthly_cap_micros
    if cap is None:
        return f"{connection.name}: {dollars(spent_micros)} spent this month, no monthly cap."
    return f"{connection.name}: {dollars(spent_micros)} spent of {dollars(cap)} this month."


def summary(cohorts: Sequence[CohortCalls], labels: Sequence[str], bound_micros: int) -> str:
    """E.g. "Up to 600 model calls: 300 for each cohort, judge calls included. Up to $1.20 …"."""
    total = sum(c.calls for c in cohorts)
    if len({c.calls for c in cohorts}) == 1:
        each = f"{cohorts[0].calls:,} for each cohort"
    else:
        each = ", ".join(
            f"{c.calls:,} for {label}" for c, label in zip(cohorts, labels, strict=True)
        )
    return (
        f"Up to {total:,} model calls: {each}, judge calls included. "
        f"Up to {dollars(bound_micros)} if every call uses its max output tokens."
    )


def same_configuration(cohorts: Sequence[tuple[int, dict[str, str]]]) -> tuple[int, int] | None:
    """The first two cohorts (by index) whose resolved bindings are identical."""
    seen: dict[tuple[tuple[str, str], ...], int] = {}
    for index, bindings in cohorts:
        key = tuple(sorted(bindings.items()))
        if key in seen:
            return seen[key], index
        seen[key] = index
    return None


def same_configuration_note(pair: tuple[int, int]) -> Note:
    """The blocker for cohorts `pair` (0-based indexes), numbered from 1 as people count them."""
    return Note(
        BlockerCode.SAME_CONFIGURATION,
        f"Cohorts {pair[0] + 1} and {pair[1] + 1} bind the same versions: a comparison needs "
        "different configurations.",
    )


def missing_fields_note(selection: Selection) -> Note:
    first = selection.missing[0]
    cases = len({m.dataset_item_id for m in selection.missing})
    return Note(
        BlockerCode.MISSING_FIELDS,
        f"{cases} {'case lacks' if cases == 1 else 'cases lack'} a mapped field and missing "
        "fields are refused: "
        f"`{first.variable}` is missing in case {first.dataset_item_id!r}. "
        "Leave those cases out or map another field.",
    )


def empty_selection_note(resolved: ResolvedInput, selection: Selection) -> Note:
    if not selection.considered:
        why = (
            f"the {resolved.split.value} split of dataset version "
            f"{resolved.dataset_version.number} has no cases"
        )
    else:
        why = "every case lacks a mapped field"
    return Note(BlockerCode.EMPTY_SELECTION, f"No case to run: {why}.")


def over_limit_note(total: int, limit: int) -> Note:
    return Note(
        BlockerCode.OVER_CALL_LIMIT,
        f"This comparison would make {total:,} model calls; a comparison makes at most "
        f"{limit:,}. Take a sample, or use fewer trials or cohorts.",
    )


def hosted_runs_note(workspace: Workspace) -> Note | None:
    if workspace.allow_hosted_runs:
        return None
    return Note(
        BlockerCode.HOSTED_RUNS_OFF,
        "Hosted runs are off for this workspace. An owner or admin can turn them on in the "
        "workspace settings (allowHostedRuns).",
    )


def connection_notes(connections: Sequence[ModelConnection]) -> list[Note]:
    return [
        Note(
            BlockerCode.CONNECTION_NOT_READY,
            f"Model connection {c.name!r} is {c.status.value}, not READY. An owner or admin "
            "can check it again in Settings, Model connections.",
        )
        for c in connections
        if c.status != ConnectionStatus.READY
    ]


def blockers(
    *,
    can_run: bool,
    workspace: Workspace,
    resolved: ResolvedInput,
    selection: Selection,
    total_calls: int,
    call_limit: int,
) -> list[Note]:
    """Every reason the comparison could not start now, in the order the form shows them."""
    notes: list[Note] = []
    if not can_run:
        notes.append(
            Note(
                BlockerCode.ROLE_TOO_LOW,
                "Your role can read comparisons. A member can run them.",
            )
        )
    hosted = hosted_runs_note(workspace)
    if hosted is not None:
        notes.append(hosted)
    notes.extend(connection_notes(list(resolved.connections.values())))
    pair = same_configuration([(c.index, c.bindings) for c in resolved.cohorts])
    if pair is not None:
        notes.append(same_configuration_note(pair))
    if selection.refused:
        notes.append(missing_fields_note(selection))
    elif not selection.kept:
        notes.append(empty_selection_note(resolved, selection))
    if total_calls > call_limit:
        notes.append(over_limit_note(total_calls, call_limit))
    return notes


def warnings(*, resolved: ResolvedInput, selection: Selection, holdout_looks: int) -> list[Note]:
    """Reasons to think twice that do not stop a start."""
    notes: list[Note] = []
    if resolved.trials_per_case < FLIP_MIN_TRIALS:
        notes.append(Note(WarningCode.FEW_TRIALS, "Use at least 3 trials to see flips."))
    kept = len(selection.kept)
    if 0 < kept < VERDICT_MIN_CASES:
        whole = resolved.sample is None and selection.left_out == 0
        notes.append(
            Note(
                WarningCode.NO_VERDICT,
                "This run gives no verdict: a verdict needs at least "
                f"{VERDICT_MIN_CASES} cases, and this {'split' if whole else 'selection'} "
                f"has {kept}.",
            )
        )
    if resolved.split == Split.HOLDOUT:
        notes.append(
            Note(
                WarningCode.HOLDOUT_LOOKS,
                "This comparison counts as a look at the holdout: each look at the holdout "
                f"makes it a weaker test — {holdout_looks} "
                f"{_plural(holdout_looks, 'look')} so far.",
            )
        )
    if (
        selection.left_out
        and resolved.missing_field_policy == MissingFieldPolicy.LEAVE_OUT
        and selection.kept
    ):
        first = selection.missing[0]
        notes.append(
            Note(
                WarningCode.CASES_LEFT_OUT,
                f"{selection.left_out} of {len(selection.considered)} cases lack a mapped "
                f"field and are left out for every cohort (`{first.variable}` is missing in "
                f"case {first.dataset_item_id!r}).",
            )
        )
    return notes


def _plural(count: int, word: str) -> str:
    return word if count == 1 else f"{word}s"


@dataclass(frozen=True, slots=True)
class ConnectionSpend:
    connection: ModelConnection
    spent_micros: int

    @property
    def text(self) -> str:
        return spend_line(self.connection, self.spent_micros)


@dataclass(frozen=True, slots=True)
class Preview:
    """Every figure, warning and blocker of `comparisonPreview`."""

    resolved: ResolvedInput
    selection: Selection
    cohorts: list[CohortCalls]
    cost_micros: list[int]
    connections: list[ConnectionSpend]
    warnings: list[Note]
    blockers: list[Note]
    call_limit: int

    @property
    def total_calls(self) -> int:
        return sum(c.calls for c in self.cohorts)

    @property
    def judge_calls(self) -> int:
        return sum(c.judge_calls for c in self.cohorts)

    @property
    def cost_bound_micros(self) -> int:
        return sum(self.cost_micros)

    @property
    def can_start(self) -> bool:
        return not self.blockers

    @property
    def summary(self) -> str:
        labels = [c.label for c in self.resolved.cohorts]
        return summary(self.cohorts, labels, self.cost_bound_micros)
