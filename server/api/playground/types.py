"""GraphQL types of a Playground run: its input, and the snapshot each pane's answer is in."""

from __future__ import annotations

from typing import TypeAlias, cast

import strawberry
from strawberry.scalars import JSON

from server.money import micros_to_cents
from server.playground.panes import PaneSpec
from server.playground.runs import CellStatus as CellStatusEnum
from server.playground.runs import RunStatus as RunStatusEnum
from server.playground.runs import Snapshot
from server.playground.service import MAX_CASES, RunSpec

strawberry.enum(RunStatusEnum, name="PlaygroundRunStatus")
PlaygroundRunStatus: TypeAlias = RunStatusEnum
strawberry.enum(CellStatusEnum, name="PlaygroundCellStatus")
PlaygroundCellStatus: TypeAlias = CellStatusEnum


@strawberry.input(description="One pane: a saved prompt version, or a draft's messages.")
class PlaygroundPaneInput:
    connection_id: strawberry.ID
    model: str
    max_tokens: int = 512
    temperature: float | None = None
    prompt_version_id: strawberry.ID | None = strawberry.field(
        default=None, description="A saved PROMPT_TEMPLATE version; else `messages` is a draft."
    )
    asset_id: strawberry.ID | None = strawberry.field(
        default=None, description="A draft's prompt (its gate settings grade the case grid)."
    )
    messages: JSON | None = strawberry.field(
        default=None, description="A draft's `[{role, content}]`, checked as a version's."
    )

    def to_spec(self) -> PaneSpec:
        return PaneSpec(
            connection_id=str(self.connection_id),
            model=self.model,
            max_tokens=self.max_tokens,
            temperature=self.temperature,
            prompt_version_id=None
            if self.prompt_version_id is None
            else str(self.prompt_version_id),
            asset_id=None if self.asset_id is None else str(self.asset_id),
            messages=self.messages,
        )


@strawberry.input(description="Every pane on one input, or on a dataset's first cases.")
class PlaygroundRunInput:
    panes: list[PlaygroundPaneInput]
    variables: JSON | None = strawberry.field(
        default=None,
        description="The variables' values, `{name: value}` (at most 20,000 characters in all).",
    )
    dataset_id: strawberry.ID | None = strawberry.field(
        default=None, description='"Run on 5 cases": the dataset whose first Dev cases run.'
    )
    case_count: int = MAX_CASES

    def to_spec(self) -> RunSpec:
        return RunSpec(
            panes=[p.to_spec() for p in self.panes],
            variables=self.variables,
            dataset_id=None if self.dataset_id is None else str(self.dataset_id),
            case_count=self.case_count,
        )


@strawberry.type
class PlaygroundCheck:
    kind: str
    passed: bool


@strawberry.type(description="One pane's answer to one input (untrusted text).")
class PlaygroundCell:
    pane_index: int
    case_id: str | None = strawberry.field(description="The dataset case; null: the typed input.")
    case_input: JSON | None
    expected: JSON | None
    status: PlaygroundCellStatus
    output: str
    error_code: str | None
    error: str | None = strawberry.field(description="Why it failed, in words.")
    input_tokens: int
    output_tokens: int
    cost_cents: float
    latency_ms: int
    passed: bool | None = strawberry.field(description="The gate settings' checks; null: none.")
    checks: list[PlaygroundCheck]


@strawberry.type(description="A Playground run: every pane's cells as they stream.")
class PlaygroundRun:
    id: strawberry.ID
    seq: int
    status: PlaygroundRunStatus
    cells: list[PlaygroundCell]

    @classmethod
    def of(cls, snapshot: Snapshot) -> PlaygroundRun:
        return cls(
            id=strawberry.ID(snapshot.id),
            seq=snapshot.seq,
            status=snapshot.status,
            cells=[
                PlaygroundCell(
                    pane_index=c.pane_index,
                    case_id=c.case_id,
                    case_input=cast(JSON, c.case_input) if c.case_id else None,
                    expected=cast(JSON, c.expected) if c.case_id else None,
                    status=c.status,
                    output=c.output,
                    error_code=c.error_code,
                    error=c.error,
                    input_tokens=c.input_tokens,
                    output_tokens=c.output_tokens,
                    cost_cents=micros_to_cents(c.cost_micros),
                    latency_ms=c.latency_ms,
                    passed=c.passed,
                    checks=[PlaygroundCheck(kind=k.kind, passed=k.passed) for k in c.checks],
                )
                for c in snapshot.cells
            ],
        )
