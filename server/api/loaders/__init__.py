"""Every per-request DataLoader in one typed object, built for the authenticated caller.

Loaders batch the nested fields of a list into one statement per kind of thing; they all
read through the request's `SharedReader`, one batch at a time. The object lives for one
operation (`Context.end_operation`), so a websocket never serves from a stale cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strawberry.dataloader import DataLoader

from server.api.loaders import assets as asset_loaders
from server.api.loaders import comparisons as comparison_loaders
from server.api.loaders import datasets as dataset_loaders
from server.api.loaders import labels as label_loaders
from server.api.loaders import releases as release_loaders
from server.api.loaders import reports as report_loaders
from server.api.loaders import runs as run_loaders
from server.api.loaders import spend as spend_loaders
from server.api.loaders import verdicts as verdict_loaders
from server.api.loaders.releases import LoadedBinding
from server.assets.models import Asset, AssetVersion
from server.comparisons.models import Comparison, ComparisonCohort
from server.experiments.models import Experiment
from server.labels.models import TrialLabel
from server.reading import SharedReader
from server.reports.models import Report, SignOff
from server.verdicts.cases import CaseKey, CaseTrialRow
from stats.intervals import Interval


@dataclass(frozen=True, slots=True)
class Loaders:
    comparisons: DataLoader[str, Comparison]
    comparison_cohorts: DataLoader[str, list[ComparisonCohort]]
    experiments: DataLoader[str, Experiment]
    dataset_versions: DataLoader[str, AssetVersion]
    case_trials: DataLoader[CaseKey, dict[int, list[CaseTrialRow]]]
    brief_case_trials: DataLoader[CaseKey, dict[int, list[CaseTrialRow]]]
    dataset_cases: DataLoader[int, tuple[Any, Any]]
    reports: DataLoader[str, list[Report]]
    sign_offs: DataLoader[str, SignOff | None]
    assets: DataLoader[str, Asset | None]
    sealed_versions: DataLoader[str, list[AssetVersion]]
    release_bindings: DataLoader[str, list[LoadedBinding]]
    release_names: DataLoader[str, str | None]
    connection_spend: DataLoader[str, int]
    versions_by_dataset: DataLoader[str, list[AssetVersion]]
    holdout_looks: DataLoader[str, int]
    run_pass_rates: DataLoader[str, Interval | None]
    trial_labels: DataLoader[tuple[str, int], list[tuple[TrialLabel, str]]]
    trace_trajectories: DataLoader[str, list[dict[str, Any]] | None]


def build_loaders(reader: SharedReader, *, workspace_id: str) -> Loaders:
    """The caller's loaders; those keyed by ids a client could name are workspace-scoped."""
    assets = asset_loaders.asset_by_id(reader, workspace_id)
    return Loaders(
        comparisons=comparison_loaders.comparison_by_id(reader, workspace_id),
        comparison_cohorts=comparison_loaders.cohorts_by_comparison(reader),
        experiments=comparison_loaders.experiment_by_id(reader, workspace_id),
        dataset_versions=comparison_loaders.dataset_version_by_id(reader, workspace_id),
        case_trials=verdict_loaders.trials_by_case(reader),
        brief_case_trials=verdict_loaders.trials_by_case(reader, brief=True),
        dataset_cases=verdict_loaders.dataset_case_by_id(reader),
        reports=report_loaders.reports_by_comparison(reader),
        sign_offs=report_loaders.sign_off_by_report(reader),
        assets=assets,
        sealed_versions=asset_loaders.sealed_versions_by_asset(reader, workspace_id),
        release_bindings=release_loaders.bindings_by_release(reader, workspace_id, assets),
        release_names=release_loaders.name_by_release(reader, workspace_id),
        connection_spend=spend_loaders.month_to_date_spend(reader),
        versions_by_dataset=dataset_loaders.versions_by_dataset(reader),
        holdout_looks=comparison_loaders.holdout_looks(reader),
        run_pass_rates=run_loaders.pass_rate_by_run(reader),
        trial_labels=label_loaders.labels_by_case(reader),
        trace_trajectories=run_loaders.trajectory_by_trace(reader, workspace_id),
    )
