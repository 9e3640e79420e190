"""Every aggregate's models, imported in one place for Alembic and the test schema."""

from server.assets.models import Asset, AssetVersion
from server.audit.models import AuditEvent
from server.comparisons.models import (
    Comparison,
    ComparisonCase,
    ComparisonCohort,
    ComparisonPairJudgment,
    Trial,
)
from server.connections.models import ModelConnection
from server.datasets.models import DatasetCase
from server.db import Base
from server.dispatch.models import ComparisonRange
from server.experiments.models import Experiment
from server.labels.models import ReviewQueue, TrialLabel
from server.live.models import LiveComparison, LiveGrade
from server.ops.models import WorkerHeartbeat
from server.releases.models import Release, ReleaseBinding
from server.reports.models import FollowUp, Report, SignOff, SignOffFollowUp
from server.run_pairs.models import PairwiseJob, PairwisePair
from server.runs.models import Run, RunDiffSummary, RunItem, RunItemScore, RunVector
from server.spend.models import ConnectionSpend, ExperimentSpend, PlaygroundCall
from server.traces.models import ModelPrice, Trace, TraceFeedback, TraceSpan
from server.verdicts.models import ComparisonVerdict, VerdictCase
from server.webhooks.models import Webhook, WebhookAttempt, WebhookDelivery
from server.workspaces.models import ApiToken, Member, Workspace

__all__ = [
    "ApiToken",
    "Asset",
    "AssetVersion",
    "AuditEvent",
    "Base",
    "Comparison",
    "ComparisonCase",
    "ComparisonCohort",
    "ComparisonPairJudgment",
    "ComparisonRange",
    "ComparisonVerdict",
    "ConnectionSpend",
    "DatasetCase",
    "Experiment",
    "ExperimentSpend",
    "FollowUp",
    "LiveComparison",
    "LiveGrade",
    "Member",
    "ModelPrice",
    "ModelConnection",
    "PairwiseJob",
    "PairwisePair",
    "PlaygroundCall",
    "Release",
    "ReviewQueue",
    "ReleaseBinding",
    "Report",
    "Run",
    "RunDiffSummary",
    "RunItem",
    "RunItemScore",
    "RunVector",
    "SignOff",
    "SignOffFollowUp",
    "Trace",
    "TraceFeedback",
    "TraceSpan",
    "Trial",
    "TrialLabel",
    "VerdictCase",
    "Webhook",
    "WebhookAttempt",
    "WebhookDelivery",
    "WorkerHeartbeat",
    "Workspace",
]
