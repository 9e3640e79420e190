"""The Strawberry schema: every aggregate's queries and mutations, with the request limits."""

from __future__ import annotations

from functools import partial

import strawberry
from strawberry.extensions import MaxAliasesLimiter, MaxTokensLimiter, QueryDepthLimiter
from strawberry.tools import merge_types

from server.audit.resolvers import AuditQuery
from server.graphql_errors import CodedErrors
from server.settings import Settings
from server.workspaces.resolvers import WorkspaceMutation, WorkspaceQuery

Query = merge_types("Query", (WorkspaceQuery, AuditQuery))
Mutation = merge_types("Mutation", (WorkspaceMutation,))


def build_schema(settings: Settings) -> strawberry.Schema:
    return strawberry.Schema(
        query=Query,
        mutation=Mutation,
        extensions=[
            partial(QueryDepthLimiter, max_depth=settings.max_query_depth),
            partial(MaxAliasesLimiter, max_alias_count=settings.max_aliases),
            partial(MaxTokensLimiter, max_token_count=settings.max_query_tokens),
            CodedErrors,
        ],
    )


def export_sdl() -> str:
    """The SDL written to `schema.graphql` (limits do not change it)."""
    return build_schema(Settings()).as_str() + "\n"
