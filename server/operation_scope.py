"""The end of every operation closes its read session and drops its DataLoaders."""

from __future__ import annotations

from collections.abc import AsyncIterator

from strawberry.extensions import SchemaExtension

from server.context import Context


class OperationScope(SchemaExtension):
    async def on_operation(self) -> AsyncIterator[None]:
        try:
            yield
        finally:
            context = self.execution_context.context
            if isinstance(context, Context):
                await context.end_operation()
