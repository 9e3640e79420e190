"""The workspaces' model prices as this process last read them, each with its stamp (how
many prices the workspace has and when the last was set), so an export is prepared with no
read of its own: the store's transaction reads the stamp (`store.prices_stamp`, one small
statement) and, when another request or process has called `setModelPrices` since, the
prices again, and the export is prepared again with them (server/traces/receiver.py). Every
process thus prices each export with the prices committed when it is stored, as reading
them first did."""

from __future__ import annotations

from typing import Any, NamedTuple

from cachetools import LRUCache

from server.traces.prepare import Prices


class PriceEntry(NamedTuple):
    stamp: tuple[Any, ...]
    prices: Prices


class PriceBook:
    def __init__(self, max_workspaces: int = 10_000) -> None:
        self._entries: LRUCache[str, PriceEntry] = LRUCache(maxsize=max_workspaces)

    def get(self, workspace_id: str) -> PriceEntry | None:
        return self._entries.get(workspace_id)

    def keep(self, workspace_id: str, entry: PriceEntry) -> None:
        self._entries[workspace_id] = entry
