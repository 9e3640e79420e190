"""A Playground run while it lives: each pane's answer (a cell per pane, or per pane and
case for "Run on 5 cases"), updated as the provider streams, and the subscribers woken.

A run lives in the process that started it (`playgroundRun` and its
`playgroundRunProgress` go to the same API process, as the portal's websocket and requests
do) and is forgotten `KEEP_SECONDS` after it ends: nothing of a draft's text or of an
output is stored. What is stored is what it cost (`PlaygroundCall` in `server.spend.models`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

KEEP_SECONDS = 600.0
WAKE_SECONDS = 5.0
"""A subscriber with no change for this long looks again (the run may have been forgotten)."""


class RunStatus(StrEnum):
    RUNNING = "RUNNING"
    DONE = "DONE"
    STOPPED = "STOPPED"


class CellStatus(StrEnum):
    QUEUED = "QUEUED"
    STREAMING = "STREAMING"
    DONE = "DONE"
    FAILED = "FAILED"
    STOPPED = "STOPPED"


ENDED = frozenset({CellStatus.DONE, CellStatus.FAILED, CellStatus.STOPPED})


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    kind: str
    passed: bool


@dataclass(frozen=True, slots=True)
class Cell:
    """One pane's answer to one input: the typed input, or a dataset case."""

    pane_index: int
    case_id: str | None = None
    case_input: Any = None
    expected: Any = None
    status: CellStatus = CellStatus.QUEUED
    output: str = ""
    error_code: str | None = None
    error: str | None = None
    """Why it failed, in words (a cap, a provider fault); never provider text."""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_micros: int = 0
    latency_ms: int = 0
    passed: bool | None = None
    checks: tuple[CheckOutcome, ...] = ()


@dataclass(frozen=True, slots=True)
class Snapshot:
    id: str
    seq: int
    status: RunStatus
    cells: tuple[Cell, ...]


@dataclass
class PlaygroundRunState:
    """A run's cells, changed only through `update`, which wakes every subscriber."""

    id: str
    workspace_id: str
    cells: list[Cell]
    status: RunStatus = RunStatus.RUNNING
    seq: int = 0
    ended_at: float | None = None
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    finisher: asyncio.Task[None] | None = None
    """Ends the run once every pane's task has (held here so it is not collected)."""
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    def snapshot(self) -> Snapshot:
        return Snapshot(self.id, self.seq, self.status, tuple(self.cells))

    def update(self, index: int, **changes: Any) -> None:
        self.cells[index] = replace(self.cells[index], **changes)
        self._bump()

    def append(self, index: int, text: str) -> None:
        cell = self.cells[index]
        self.cells[index] = replace(cell, output=cell.output + text, status=CellStatus.STREAMING)
        self._bump()

    def finish(self, status: RunStatus) -> None:
        if self.status != RunStatus.RUNNING:
            return
        for index, cell in enumerate(self.cells):
            if cell.status not in ENDED:
                self.cells[index] = replace(cell, status=CellStatus.STOPPED)
        self.status = status
        self.ended_at = time.monotonic()
        self._bump()

    def _bump(self) -> None:
        self.seq += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def snapshots(self) -> AsyncIterator[Snapshot]:
        """The current snapshot, then one per change (coalesced), ending after the last."""
        sent = -1
        while True:
            waiter = self._changed
            if self.seq > sent:
                sent = self.seq
                yield self.snapshot()
            if self.status != RunStatus.RUNNING:
                return
            try:
                await asyncio.wait_for(waiter.wait(), WAKE_SECONDS)
            except TimeoutError:
                continue


class Registry:
    """The runs of this process, by id; ended ones forgotten after `KEEP_SECONDS`."""

    def __init__(self) -> None:
        self._runs: dict[str, PlaygroundRunState] = {}

    def add(self, run: PlaygroundRunState) -> None:
        self._forget_old()
        self._runs[run.id] = run

    def get(self, run_id: str, workspace_id: str) -> PlaygroundRunState | None:
        run = self._runs.get(run_id)
        return run if run is not None and run.workspace_id == workspace_id else None

    def _forget_old(self) -> None:
        now = time.monotonic()
        for run_id, run in list(self._runs.items()):
            if run.ended_at is not None and now - run.ended_at > KEEP_SECONDS:
                del self._runs[run_id]


RUNS = Registry()
