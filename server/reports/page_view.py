"""What the report page shows: the frozen document, plus what is true now (labelled current):
follow-up states, this version's sign-off, newer versions and staleness."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.decisions import wording as decision_wording
from server.reports import document, followups
from server.reports import service as report_service
from server.reports.models import FollowUp, Report, SignOff
from server.verdicts import service as verdict_service
from server.workspaces.models import Member

WIDTH: Final = 720
LABEL_WIDTH: Final = 150
VALUE_WIDTH: Final = 150
ROW_HEIGHT: Final = 30
PLOT_PAD: Final = 24


@dataclass(frozen=True, slots=True)
class ForestRow:
    cohort_index: int
    label: str
    candidate: bool
    y: float
    x_low: float
    x_high: float
    x_point: float
    text: str


@dataclass(frozen=True, slots=True)
class Forest:
    width: int
    height: int
    rows: list[ForestRow]
    ticks: list[tuple[float, str]]
    value_x: float


@dataclass(slots=True)
class PageView:
    report: Report
    doc: dict[str, Any]
    latest_version: int
    sign_off: SignOff | None
    verdict: str | None
    current_follow_ups: dict[str, FollowUp]
    current_tallies: dict[int, followups.Tally]
    current_staleness: dict[str, Any] | None
    names: dict[str, str]
    now: datetime
    forest: Forest
    labels: dict[int, str] = field(default_factory=dict)

    def name(self, member_id: str | None) -> str:
        if not member_id:
            return "—"
        return self.names.get(member_id, member_id)

    @staticmethod
    def outcome_words(outcome: str) -> str:
        """SHIP → "Ship", DONT_SHIP → "Don't ship", …"""
        return decision_wording.OUTCOME_WORDS.get(outcome, outcome)

    @staticmethod
    def policy_words(policy: dict[str, Any]) -> str:
        return decision_wording.policy_sentence(policy)


def _x(rate: float) -> float:
    span = WIDTH - LABEL_WIDTH - VALUE_WIDTH - 2 * PLOT_PAD
    return round(LABEL_WIDTH + PLOT_PAD + max(0.0, min(1.0, rate)) * span, 2)


def forest(doc: dict[str, Any], labels: dict[int, str]) -> Forest:
    """Each cohort's pass rate and 95% interval on a 0–100% axis."""
    rows = []
    for position, conf in enumerate(doc["scorecard"].get("confidence", [])):
        index = int(conf["cohortIndex"])
        rate, low, high = (float(conf.get(k) or 0.0) for k in ("passRate", "low", "high"))
        rows.append(
            ForestRow(
                cohort_index=index,
                label=labels.get(index, f"cohort {index}"),
                candidate=index == 0,
                y=ROW_HEIGHT * position + ROW_HEIGHT / 2 + 4,
                x_low=_x(low),
                x_high=_x(high),
                x_point=_x(rate),
                text=f"{rate * 100:.1f}% [{low * 100:.1f}, {high * 100:.1f}]",
            )
        )
    height = ROW_HEIGHT * len(rows) + 30
    ticks = [(_x(t / 100), f"{t}%") for t in (0, 25, 50, 75, 100)]
    return Forest(width=WIDTH, height=height, rows=rows, ticks=ticks, value_x=WIDTH - 4)


async def _names(session: AsyncSession, workspace_id: str, ids: set[str]) -> dict[str, str]:
    if not ids:
        return {}
    rows = await session.execute(
        select(Member.id, Member.name).where(Member.workspace_id == workspace_id,
                                             Member.id.in_(ids))
    )  # fmt: skip
    return {str(i): str(n) for i, n in rows}


async def build(session: AsyncSession, report: Report, now: datetime) -> PageView:
    """The page's data for a report already authorized for the caller."""
    doc = json.loads(report.document)  # read for display; the stored text is never rewritten
    labels = {int(c["cohortIndex"]): str(c["label"]) for c in doc.get("cohorts", [])}
    current: dict[str, FollowUp] = {}
    for baseline in doc["failureAnalysis"]["baselines"]:
        listed = len(baseline["worseCases"])
        for row in await followups.listed(
            session, report.comparison_id, int(baseline["baselineCohortIndex"]), listed
        ):
            current[row.id] = row
    sign_offs = await report_service.get_sign_offs(session=session, report_ids=[report.id])
    sign_off = sign_offs.get(report.id)
    verdicts = await verdict_service.get_verdicts(
        session=session, comparison_ids=[report.comparison_id]
    )
    verdict_row = verdicts.get(report.comparison_id)
    finalized_at = verdict_row.finalized_at if verdict_row is not None else None
    member_ids = {r.resolved_by_member_id for r in current.values() if r.resolved_by_member_id}
    if sign_off is not None:
        member_ids.add(sign_off.signer_member_id)
    if report.created_by_member_id:
        member_ids.add(report.created_by_member_id)
    for baseline in doc["failureAnalysis"]["baselines"]:
        for case in baseline["worseCases"]:
            if case["followUp"]["resolvedByMemberId"]:
                member_ids.add(case["followUp"]["resolvedByMemberId"])
    return PageView(
        report=report,
        doc=doc,
        latest_version=await report_service.latest_version(session, report.comparison_id),
        sign_off=sign_off,
        verdict=verdict_row.verdict.value if verdict_row and verdict_row.verdict else None,
        current_follow_ups=current,
        current_tallies=await followups.tally(session, report.comparison_id),
        current_staleness=document.staleness(finalized_at, now),
        names=await _names(session, report.workspace_id, member_ids),
        now=now,
        forest=forest(doc, labels),
        labels=labels,
    )
