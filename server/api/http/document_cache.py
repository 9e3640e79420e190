"""Each distinct document text is parsed and validated once, the limits' rules included.

Strawberry parses and validates every request, and each limit (depth, aliases, bad text)
is a visitor over the document: together most of the cost of a small query. Here the
parsed document and its validation errors are kept per document text (bounded LRU, texts
up to 64 KiB), so a polling client's repeated query costs neither. Only the variables
differ between requests: they are checked for bad text on each request (one fast pass).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from cachetools import LRUCache
from graphql import DocumentNode, GraphQLError, validate
from graphql.validation import ASTValidationRule
from strawberry.extensions import SchemaExtension
from strawberry.extensions.max_aliases import create_validator
from strawberry.schema.schema import validate_document

from server.api.http.depth_limit import depth_rule
from server.api.http.input_text import problem_in_value, text_rule

MAX_CACHED_TEXT = 64 * 1024


@dataclass(slots=True)
class _Entry:
    document: DocumentNode
    errors: tuple[GraphQLError, ...] | None = None


class Documents:
    """Parsed documents and their validation errors by text, for one schema's limits."""

    def __init__(
        self, *, max_depth: int, max_aliases: int, max_tokens: int, maxsize: int = 256
    ) -> None:
        self.max_tokens = max_tokens
        self.rules: tuple[type[ASTValidationRule], ...] = (
            depth_rule(max_depth),
            create_validator(max_aliases),
            text_rule({}),  # strings written in the document; variables are checked apart
        )
        self._entries: LRUCache[str, _Entry] = LRUCache(maxsize=maxsize)

    def get(self, text: str | None) -> _Entry | None:
        return self._entries.get(text) if text else None

    def put(self, text: str | None, document: DocumentNode) -> _Entry | None:
        if not text or len(text) > MAX_CACHED_TEXT:
            return None
        entry = self._entries[text] = _Entry(document)
        return entry


class DocumentCache(SchemaExtension):
    """The limits (depth, aliases, tokens, bad text) and the parse/validation cache."""

    def __init__(self, documents: Documents) -> None:
        self.documents = documents
        self.entry: _Entry | None = None

    def on_operation(self) -> Iterator[None]:
        self.execution_context.parse_options["max_tokens"] = self.documents.max_tokens
        yield

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        self.entry = self.documents.get(context.query)
        if self.entry is not None:
            context.graphql_document = self.entry.document
        yield
        if self.entry is None and context.graphql_document is not None:
            self.entry = self.documents.put(context.query, context.graphql_document)

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        assert document is not None
        schema = context.schema._schema
        errors = self.entry.errors if self.entry is not None else None
        if errors is None:
            rules = (*context.validation_rules, *self.documents.rules)
            errors = tuple(validate_document(schema, document, rules))
            if self.entry is not None:
                self.entry.errors = errors
        variables = context.variables
        if not errors and variables and problem_in_value(variables) is not None:
            errors = tuple(validate(schema, document, [text_rule(variables)]))
        context.pre_execution_errors = list(errors)
        yield
