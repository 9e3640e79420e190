"""Reason codes and method names that `stats` results carry.

Plain strings, so they cross into GraphQL enums and JSON without conversion.
"""

from __future__ import annotations

from typing import Final

from stats.movement import Movement

# Degenerate inputs: a defined answer, explained.
NO_CASES: Final = "NO_CASES"
ONE_CASE: Final = "ONE_CASE"
ZERO_VARIANCE: Final = "ZERO_VARIANCE"
ALL_PASS: Final = "ALL_PASS"
ALL_FAIL: Final = "ALL_FAIL"
NO_DISCORDANT_PAIRS: Final = "NO_DISCORDANT_PAIRS"
ALL_ZERO_DIFFERENCES: Final = "ALL_ZERO_DIFFERENCES"
BCA_DEGENERATE: Final = "BCA_DEGENERATE"
POWER_NOT_REACHABLE: Final = "POWER_NOT_REACHABLE"
INCOMPLETE_CASES_EXCLUDED: Final = "INCOMPLETE_CASES_EXCLUDED"
NO_JUDGED_PAIRS: Final = "NO_JUDGED_PAIRS"
PARTIALLY_JUDGED: Final = "PARTIALLY_JUDGED"
TIED_VOTES: Final = "TIED_VOTES"
NO_VOTES: Final = "NO_VOTES"
FLOOR_REACHED: Final = "FLOOR_REACHED"
KAPPA_UNDEFINED: Final = "KAPPA_UNDEFINED"
TOO_FEW_LABELS: Final = "TOO_FEW_LABELS"
KAPPA_BELOW_BOUND: Final = "KAPPA_BELOW_BOUND"
# A NaN or ±inf where a number is needed: the answer given for no cases, with this reason.
NON_FINITE_INPUT: Final = "NON_FINITE_INPUT"

# Gate reasons (docs/statistics.md).
INSUFFICIENT_CASES: Final = "INSUFFICIENT_CASES"
MISSING_DATA: Final = "MISSING_DATA"
UNDERPOWERED: Final = "UNDERPOWERED"
SIGNIFICANT_REGRESSION: Final = "SIGNIFICANT_REGRESSION"
SIGNIFICANT_IMPROVEMENT: Final = "SIGNIFICANT_IMPROVEMENT"
WITHIN_TARGET_EFFECT: Final = "WITHIN_TARGET_EFFECT"

# Gate outcomes: a run's `Movement` (stats/movement.py).
REGRESSED: Final = Movement.REGRESSED.value
IMPROVED: Final = Movement.IMPROVED.value
NO_CHANGE: Final = Movement.NO_CHANGE.value
NO_VERDICT: Final = Movement.NO_VERDICT.value

# Adequacy.
INSUFFICIENT: Final = "INSUFFICIENT"
ADEQUATE: Final = "ADEQUATE"
# UNDERPOWERED doubles as the adequacy value.

# Significance methods (Scorecard.significance.method).
Z_TEST: Final = "Z_TEST"
MCNEMAR_MID_P: Final = "MCNEMAR_MID_P"
SIGN_FLIP_PERMUTATION: Final = "SIGN_FLIP_PERMUTATION"

# How a p-value or interval was computed.
EXACT_ENUMERATION: Final = "EXACT_ENUMERATION"
EXACT_CONVOLUTION: Final = "EXACT_CONVOLUTION"
MONTE_CARLO: Final = "MONTE_CARLO"
PAIRED_T: Final = "PAIRED_T"
NONE: Final = "NONE"
WILSON: Final = "WILSON"
WILSON_EFFECTIVE_N: Final = "WILSON_EFFECTIVE_N"
CLUSTERED_CR1: Final = "CLUSTERED_CR1"
T_INTERVAL: Final = "T_INTERVAL"
BOOTSTRAP_BCA: Final = "BOOTSTRAP_BCA"
BOOTSTRAP_PERCENTILE: Final = "BOOTSTRAP_PERCENTILE"
FLEISS_COHEN_EVERITT: Final = "FLEISS_COHEN_EVERITT"
PREDICTION_POWERED: Final = "PREDICTION_POWERED"
