"""The end of every operation closes its read session and drops its DataLoaders."""

from __future__ import annotations

from collections.abc import AsyncIterator

from strawberry.extensions import SchemaExtension

from server.api.context import Context


class OperationScope(SchemaExtension):
    async def on_operation(self) -> AsyncIterator[None]:
        context = self.execution_context.context
        if not isinstance(context, Context):
            yield
            return
        context.operations += 1
        try:
            yield
        finally:
            context.operations -= 1
            if context.operations == 0:  # a websocket may run operations side by side
                await context.end_operation()
