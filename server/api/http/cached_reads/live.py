"""`liveComparison(id)`: the portal's `/live/:id` polls it, its readers many to a comparison.

Everything the field shows is the live comparison's one row (server/api/live/types.py
`LiveComparison.from_row`: arms, decision and sequence are stored by the grading batch,
nothing is computed on read), and every write of the row moves its `seq` (a batch, a
cancel, the expiry; the cursor's moves change nothing shown). So the stamp is (`seq`,
`status`) of the workspace's row, read by its primary key, and the answer is kept whole
until the next batch: readers between two batches are answered from memory.
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import Select, bindparam, select
from strawberry.types.base import get_object_definition

from server.api.http.cached_reads.shape import WHOLE, Rule, Shape, Stamp
from server.api.live.types import LiveComparison as LiveComparisonType
from server.live.models import LiveComparison
from server.page_reads.comparison_page import Fetch
from server.page_reads.fields import camel_case

SHAPE: Final[Shape] = dict.fromkeys(
    (
        camel_case(f.python_name)
        for f in get_object_definition(LiveComparisonType, strict=True).fields
    ),
    WHOLE,
)

_STAMP: Final[Select[Any]] = (
    select(LiveComparison.seq).add_columns(LiveComparison.status).where(
        LiveComparison.id == bindparam("live_id"),
        LiveComparison.workspace_id == bindparam("workspace_id"),
    )
)
"""Built once: a statement made on each read cost more CPU than the read itself."""


async def read_stamp(
    fetch: Fetch,
    *,
    dialect: str,  # noqa: ARG001 - every rule's stamp takes it
    workspace_id: str,
    arguments: dict[str, Any],
    max_page_size: int,  # noqa: ARG001 - every rule's stamp takes it
) -> Stamp | None:
    """(`seq`, `status`) of the workspace's live comparison; None for another workspace's or
    an unknown id (answered as usual: NOT_FOUND)."""
    live_id = arguments.get("id")
    if not isinstance(live_id, str):
        return None
    params = {"live_id": live_id, "workspace_id": workspace_id}
    rows = await fetch(_STAMP, params)
    return None if not rows else (live_id, rows[0]["seq"], str(rows[0]["status"]))


RULE: Final = Rule(
    root="liveComparison",
    arguments=frozenset({"id"}),
    required=frozenset({"id"}),
    shape=SHAPE,
    stamp=read_stamp,
)
