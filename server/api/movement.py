"""The GraphQL names of how a case or a run moved (`stats.movement`): one `Movement` for
verdicts, run-diff evaluators and comparison cases, one `CaseFilter` for every case list.

The domain enums themselves are the GraphQL enums: annotate with them after importing here."""

from __future__ import annotations

import strawberry

from stats.movement import CaseFilter, Movement

strawberry.enum(
    Movement,
    name="Movement",
    description="Candidate against baseline. NO_VERDICT: nothing to compare (no grade or "
    "score on a side) or, for a verdict, too little evidence (its `reason`).",
)
strawberry.enum(
    CaseFilter,
    name="CaseFilter",
    description="Cases by their movement; CHANGED = REGRESSED or IMPROVED.",
)

__all__ = ["CaseFilter", "Movement"]
