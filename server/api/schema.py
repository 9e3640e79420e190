"""The Strawberry schema: every aggregate's queries and mutations, with the request limits."""

from __future__ import annotations

import strawberry
from graphql import GraphQLError
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext

from server.api.assets.resolvers import AssetMutation, AssetQuery
from server.api.audit.resolvers import AuditQuery
from server.api.comparisons.finalize_mutation import VerdictMutation
from server.api.comparisons.resolvers import ComparisonMutation, ComparisonQuery
from server.api.comparisons.subscription import ComparisonSubscription
from server.api.connections.resolvers import ConnectionMutation, ConnectionQuery
from server.api.datasets.resolvers import (
    DatasetFromTracesMutation,
    DatasetFromTracesQuery,
    DatasetMutation,
    DatasetQuery,
)
from server.api.experiments.resolvers import ExperimentMutation, ExperimentQuery
from server.api.exports.resolvers import ExportMutation
from server.api.http.document_limits import limit_extensions
from server.api.http.graphql_errors import CodedErrors
from server.api.http.operation_scope import OperationScope
from server.api.http.shared_events import SharedEventExecutor
from server.api.labels.resolvers import LabelMutation, LabelQuery
from server.api.live.resolvers import LiveMutation, LiveQuery, LiveSubscription
from server.api.playground.resolvers import (
    PlaygroundMutation,
    PlaygroundSubscription,
)
from server.api.releases.resolvers import ReleaseMutation, ReleaseQuery
from server.api.reports.resolvers import ReportMutation, ReportQuery
from server.api.run_pairs.resolvers import PairwiseMutation, PairwiseQuery
from server.api.runs.resolvers import RunMutation, RunQuery
from server.api.traces.resolvers import TraceMutation, TraceQuery
from server.api.webhooks.resolvers import WebhookMutation, WebhookQuery
from server.api.workspaces.resolvers import WorkspaceMutation, WorkspaceQuery
from server.settings import Settings

Query = merge_types(
    "Query",
    (
        WorkspaceQuery,
        AuditQuery,
        ConnectionQuery,
        ExperimentQuery,
        AssetQuery,
        ReleaseQuery,
        DatasetQuery,
        DatasetFromTracesQuery,
        ComparisonQuery,
        RunQuery,
        PairwiseQuery,
        ReportQuery,
        LabelQuery,
        WebhookQuery,
        TraceQuery,
        LiveQuery,
    ),
)
Mutation = merge_types(
    "Mutation",
    (
        WorkspaceMutation,
        ConnectionMutation,
        ExperimentMutation,
        AssetMutation,
        ReleaseMutation,
        DatasetMutation,
        DatasetFromTracesMutation,
        ComparisonMutation,
        RunMutation,
        ExportMutation,
        PairwiseMutation,
        VerdictMutation,
        ReportMutation,
        LabelMutation,
        WebhookMutation,
        PlaygroundMutation,
        TraceMutation,
        LiveMutation,
    ),
)
Subscription = merge_types(
    "Subscription", (ComparisonSubscription, PlaygroundSubscription, LiveSubscription)
)


class ShipwiseSchema(strawberry.Schema):
    def process_errors(
        self,
        errors: list[GraphQLError],
        execution_context: ExecutionContext | None = None,
    ) -> None:
        """Strawberry would log each error with its text; `CodedErrors` logs safely instead."""


def build_schema(settings: Settings) -> strawberry.Schema:
    """The schema with its limits, each document text parsed and validated once
    (`server.api.http.document_limits`)."""
    limits = limit_extensions(
        max_depth=settings.max_query_depth,
        max_aliases=settings.max_aliases,
        max_tokens=settings.max_query_tokens,
    )
    return ShipwiseSchema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        execution_context_class=SharedEventExecutor,
        extensions=[*limits, CodedErrors, OperationScope],
    )


def export_sdl() -> str:
    """The SDL written to `schema.graphql` (limits do not change it)."""
    return build_schema(Settings()).as_str() + "\n"
