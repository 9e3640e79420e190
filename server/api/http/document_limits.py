"""The request limits (tokens, depth, aliases, bad text) on Strawberry's own caches.

Each distinct document text is parsed once (`ParserCache`) and validated once with every
limit's rule (`ValidationCache`, keyed by the parsed document and the rules), so a polling
client's repeated query costs neither. The rules are built once per schema: a class made
per request would miss the validation cache every time. Only the variables differ between
requests: `VariableText` checks them for bad text on each request (one fast pass).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from graphql import ASTValidationRule, validate
from strawberry.extensions import (
    AddValidationRules,
    MaxTokensLimiter,
    ParserCache,
    SchemaExtension,
    ValidationCache,
)
from strawberry.extensions.max_aliases import create_validator

from server.api.http.depth_limit import depth_rule
from server.api.http.input_text import problem_in_value, text_rule

CACHED_DOCUMENTS = 256
"""Distinct document texts kept parsed and validated (least recently used go first)."""


class VariableText(SchemaExtension):
    """Refuses a request whose variables hold text no column can store (NUL, a lone
    surrogate), after the cached validation of the document found nothing else."""

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        variables, document = context.variables, context.graphql_document
        if (
            not context.pre_execution_errors
            and document is not None
            and variables
            and problem_in_value(variables) is not None
        ):
            schema = context.schema._schema
            context.pre_execution_errors = list(validate(schema, document, [text_rule(variables)]))
        yield


def limit_rules(*, max_depth: int, max_aliases: int) -> list[type[ASTValidationRule]]:
    """The validation rules of the limits (built once per schema: see above)."""
    return [
        depth_rule(max_depth),
        create_validator(max_aliases),
        text_rule({}),  # strings written in the document; variables are checked apart
    ]


def limit_extensions(
    *, max_depth: int, max_aliases: int, max_tokens: int
) -> list[Callable[[], SchemaExtension]]:
    """The extensions of the limits, in the order they must run: the token limit before
    parsing, the rules added before the cached validation, the variables checked after it."""
    rules = limit_rules(max_depth=max_depth, max_aliases=max_aliases)
    return [
        lambda: MaxTokensLimiter(max_token_count=max_tokens),
        lambda: AddValidationRules(rules),
        lambda: ParserCache(maxsize=CACHED_DOCUMENTS),
        lambda: ValidationCache(maxsize=CACHED_DOCUMENTS),
        VariableText,
    ]
