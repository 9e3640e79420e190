"""shipwise statistics: pure functions, numpy arrays in, frozen dataclasses out (docs/statistics.md)

Nothing here does I/O or imports the rest of shipwise.
"""

from stats.agreement import Agreement, cohens_kappa, judge_agreement, kappa_standard_error
from stats.bootstrap import bootstrap_mean_interval, delta_interval
from stats.calibration import Calibration, judge_calibration
from stats.confidence import CohortConfidence, cohort_confidence
from stats.decision import CohortMeasures, Criterion, Decision, QualityBounds, ship_decision
from stats.descriptive import case_means, percentile
from stats.failure_analysis import FailureAnalysis, failure_analysis, regressed_cases
from stats.gate import (
    PairedComparison,
    PairedTest,
    SignificanceRow,
    Verdict,
    compare_pair,
    decide,
    gate,
    paired_test,
    subset,
)
from stats.intervals import (
    Interval,
    clustered_interval,
    pass_rate_interval,
    t_interval,
    wilson_interval,
)
from stats.mcnemar import McNemarResult, mcnemar_from_counts, mcnemar_test
from stats.metric_deltas import MetricDelta, metric_delta
from stats.multiplicity import holm
from stats.permutation import PermutationResult, sign_flip_test, sign_flip_test_lattice
from stats.power import Mde, adequacy, paired_mde, two_proportion_power, unpaired_mde
from stats.prediction_powered import prediction_powered_delta, prediction_powered_interval
from stats.preference import PairwiseResult, combine_orders, pairwise_summary
from stats.proportions import ZTestResult, two_proportion_ztest
from stats.ship_policy import Guardrail, ShipPolicy
from stats.trials import (
    CohortTrials,
    TrialSummary,
    case_outcomes,
    flips,
    pass_at_k,
    pass_fractions,
    pass_hat_k,
    relations,
    trial_summary,
)
from stats.winners import (
    MetricWinners,
    OverallWinner,
    metric_winners,
    overall_winner,
    pass_rate_winners,
)

__all__ = [
    "Agreement",
    "Calibration",
    "CohortConfidence",
    "CohortMeasures",
    "CohortTrials",
    "Criterion",
    "Decision",
    "FailureAnalysis",
    "Guardrail",
    "Interval",
    "McNemarResult",
    "Mde",
    "MetricDelta",
    "MetricWinners",
    "OverallWinner",
    "PairedComparison",
    "PairedTest",
    "PairwiseResult",
    "PermutationResult",
    "QualityBounds",
    "ShipPolicy",
    "SignificanceRow",
    "TrialSummary",
    "Verdict",
    "ZTestResult",
    "adequacy",
    "bootstrap_mean_interval",
    "case_means",
    "case_outcomes",
    "clustered_interval",
    "cohens_kappa",
    "cohort_confidence",
    "combine_orders",
    "compare_pair",
    "decide",
    "delta_interval",
    "failure_analysis",
    "flips",
    "gate",
    "holm",
    "judge_agreement",
    "judge_calibration",
    "kappa_standard_error",
    "mcnemar_from_counts",
    "mcnemar_test",
    "metric_delta",
    "metric_winners",
    "overall_winner",
    "paired_mde",
    "paired_test",
    "prediction_powered_delta",
    "prediction_powered_interval",
    "pairwise_summary",
    "pass_at_k",
    "pass_fractions",
    "pass_hat_k",
    "pass_rate_interval",
    "pass_rate_winners",
    "percentile",
    "regressed_cases",
    "relations",
    "ship_decision",
    "sign_flip_test",
    "sign_flip_test_lattice",
    "subset",
    "t_interval",
    "trial_summary",
    "two_proportion_power",
    "two_proportion_ztest",
    "unpaired_mde",
    "wilson_interval",
]
