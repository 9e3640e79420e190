"""The ship decision's words (docs/decision.md): criterion kinds, statuses and reasons, the
outcomes and theirs, as the stored decision document spells them; Δ in points."""

from __future__ import annotations

from typing import Final

POINTS: Final = 100.0

# Criterion kinds and statuses.
QUALITY: Final = "QUALITY"
GUARDRAIL: Final = "GUARDRAIL"
GAIN: Final = "GAIN"
MET: Final = "MET"
VIOLATED: Final = "VIOLATED"
UNCERTAIN: Final = "UNCERTAIN"
# Criterion reasons.
ZERO_BASELINE: Final = "ZERO_BASELINE"
NOT_MEASURED: Final = "NOT_MEASURED"
JUDGE_UNCALIBRATED: Final = "JUDGE_UNCALIBRATED"
# Outcomes and their reasons.
SHIP: Final = "SHIP"
DONT_SHIP: Final = "DONT_SHIP"
MORE_DATA: Final = "MORE_DATA"
NO_DECISION: Final = "NO_DECISION"
INSUFFICIENT_CASES: Final = "INSUFFICIENT_CASES"
NOT_RUN_TO_END: Final = "NOT_RUN_TO_END"
NO_BASELINE: Final = "NO_BASELINE"
UNLIKELY_TO_PASS: Final = "UNLIKELY_TO_PASS"
