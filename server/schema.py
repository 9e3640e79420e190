"""The Strawberry schema: every aggregate's queries and mutations, with the request limits."""

from __future__ import annotations

from functools import partial

import strawberry
from graphql import GraphQLError
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext

from server.assets.resolvers import AssetMutation, AssetQuery
from server.audit.resolvers import AuditQuery
from server.comparisons.resolvers import ComparisonMutation, ComparisonQuery
from server.comparisons.subscription import ComparisonSubscription
from server.connections.resolvers import ConnectionMutation, ConnectionQuery
from server.datasets.resolvers import DatasetMutation, DatasetQuery
from server.experiments.resolvers import ExperimentMutation, ExperimentQuery
from server.exports.resolvers import ExportMutation
from server.http.document_cache import DocumentCache, Documents
from server.http.graphql_errors import CodedErrors
from server.http.operation_scope import OperationScope
from server.http.shared_events import SharedEventExecutor
from server.pairwise.resolvers import PairwiseMutation, PairwiseQuery
from server.releases.resolvers import ReleaseMutation, ReleaseQuery
from server.reports.resolvers import ReportMutation, ReportQuery
from server.runs.resolvers import RunMutation, RunQuery
from server.settings import Settings
from server.verdicts.mutations import VerdictMutation
from server.webhooks.resolvers import WebhookMutation, WebhookQuery
from server.workspaces.resolvers import WorkspaceMutation, WorkspaceQuery

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
        ComparisonQuery,
        RunQuery,
        PairwiseQuery,
        ReportQuery,
        WebhookQuery,
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
        ComparisonMutation,
        RunMutation,
        ExportMutation,
        PairwiseMutation,
        VerdictMutation,
        ReportMutation,
        WebhookMutation,
    ),
)
Subscription = merge_types("Subscription", (ComparisonSubscription,))


class ShipwiseSchema(strawberry.Schema):
    def process_errors(
        self,
        errors: list[GraphQLError],
        execution_context: ExecutionContext | None = None,
    ) -> None:
        """Strawberry would log each error with its text; `CodedErrors` logs safely instead."""


def build_schema(settings: Settings) -> strawberry.Schema:
    """The schema with its limits, checked once per document text (`DocumentCache`)."""
    documents = Documents(
        max_depth=settings.max_query_depth,
        max_aliases=settings.max_aliases,
        max_tokens=settings.max_query_tokens,
    )
    return ShipwiseSchema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        execution_context_class=SharedEventExecutor,
        extensions=[
            partial(DocumentCache, documents),
            CodedErrors,
            OperationScope,
        ],
    )


def export_sdl() -> str:
    """The SDL written to `schema.graphql` (limits do not change it)."""
    return build_schema(Settings()).as_str() + "\n"
