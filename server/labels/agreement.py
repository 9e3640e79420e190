"""A judge's agreement with human labels, and the queue labels that correct Δ (docs/labels.md).

Per judge check of a comparison (a JUDGE_RUBRIC check: rubric version and judge model),
over the labelled trials it graded: the judge's grade on that check against the trial's
human label. Per imported run, the evaluator named as its judge at import: a score of at
least 0.5 is the judge's pass.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

import stats
from server.checks import CheckKind
from server.comparisons.models import Comparison, Trial, TrialState
from server.labels import queue
from server.labels import service as labels
from server.labels.judge_checks import judge_checks
from server.labels.service import JUDGE_PASS_SCORE
from server.runs.models import Run, RunItem
from stats import reasons


@dataclass(frozen=True, slots=True)
class CheckAgreement:
    check_key: str
    agreement: stats.Agreement


@dataclass(frozen=True, slots=True)
class QueueLabels:
    """The queue's labelled trials per cohort as rectifiers r = judge pass − human pass."""

    rectifiers: Mapping[int, Sequence[float]]

    @property
    def count(self) -> int:
        return sum(len(values) for values in self.rectifiers.values())


def agreement_document(found: CheckAgreement) -> dict[str, Any]:
    """The figures as stored in a report document (camelCase, as GraphQL names them; null
    where undefined)."""
    value = found.agreement

    def interval(name: str, figure: stats.Interval, undefined: tuple[str, ...]) -> dict[str, Any]:
        if figure.reason in undefined:
            return {name: None, f"{name}Low": None, f"{name}High": None}
        return {name: figure.estimate, f"{name}Low": figure.low, f"{name}High": figure.high}

    return {
        "checkKey": found.check_key,
        "labels": value.labels,
        "agreement": value.agreement if value.labels else None,
        **interval("kappa", value.kappa, (reasons.NO_CASES, reasons.KAPPA_UNDEFINED)),
        **interval("sensitivity", value.sensitivity, (reasons.NO_CASES,)),
        **interval("specificity", value.specificity, (reasons.NO_CASES,)),
    }


async def _labelled_trials(
    session: AsyncSession, comparison_id: str
) -> list[tuple[labels.TrialKey, bool, list[dict[str, Any]], bool]]:
    """(key, trial passed, check results, human label) of each labelled graded trial."""
    human = labels.human_labels(await labels.labels_of(session=session, target_id=comparison_id))
    if not human:
        return []
    rows = await session.execute(
        select(
            Trial.cohort_index, Trial.case_ordinal, Trial.trial_index, Trial.passed,
            Trial.check_results,
        ).where(
            Trial.comparison_id == comparison_id,
            Trial.state == TrialState.COMPLETED,
            Trial.passed.is_not(None),
            Trial.case_ordinal.in_(sorted({key[1] for key in human})),
        )
    )  # fmt: skip
    found = []
    for cohort, ordinal, trial_index, passed, results in rows:
        key = (int(cohort), int(ordinal), int(trial_index))
        if key in human:
            found.append((key, bool(passed), list(results or []), human[key]))
    return sorted(found, key=lambda row: row[0])


async def comparison_agreement(
    *, session: AsyncSession, comparison: Comparison
) -> list[CheckAgreement]:
    """One agreement per judge check of the comparison (none without judge checks)."""
    checks = judge_checks(comparison.checks)
    if not checks:
        return []
    trials = await _labelled_trials(session, comparison.id)
    answers = []
    for index, key in checks:
        graded = [
            (bool(results[index]["passed"]), human)
            for _, _, results, human in trials
            if index < len(results) and results[index].get("kind") == CheckKind.JUDGE_RUBRIC
        ]
        answers.append(
            CheckAgreement(
                key,
                stats.judge_agreement([j for j, _ in graded], [h for _, h in graded]),
            )
        )
    return answers


async def queue_labels(*, session: AsyncSession, comparison_id: str) -> QueueLabels:
    """The queue's labelled trials (a simple random sample of the graded ones) as rectifiers
    of the trial's outcome, per cohort; labels made outside the queue's sample are left out."""
    sample = await queue.queue_sample(session, comparison_id)
    rectifiers: dict[int, list[float]] = defaultdict(list)
    for key, passed, _, human in await _labelled_trials(session, comparison_id):
        if key in sample:
            rectifiers[key[0]].append(float(passed) - float(human))
    return QueueLabels(dict(rectifiers))


async def run_agreement(*, session: AsyncSession, run: Run) -> list[CheckAgreement]:
    """The agreement of an imported run's judge evaluator, when the import named one."""
    name = run.judge_evaluator
    if name is None:
        return []
    human = labels.human_labels(await labels.labels_of(session=session, target_id=run.id))
    rows = await session.execute(
        select(RunItem.position, RunItem.trials).where(
            RunItem.run_id == run.id,
            RunItem.position.in_(sorted({key[1] for key in human}) or [-1]),
        )
    )
    graded: list[tuple[bool, bool]] = []
    for position, trials in rows:
        for index, trial in enumerate(trials or []):
            score = (trial.get("evaluators") or {}).get(name)
            label = human.get((0, int(position), index))
            if label is not None and isinstance(score, int | float):
                graded.append((float(score) >= JUDGE_PASS_SCORE, label))
    return [
        CheckAgreement(name, stats.judge_agreement([j for j, _ in graded], [h for _, h in graded]))
    ]
