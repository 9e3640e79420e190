"""Run items checked as the API checks them, before any is sent or compared.

The check is the server's own (`server.runs.items.check_item`), so a refusal names the
tool's line or zip member rather than a chunk index; repeated ids are caught here too.
"""

from __future__ import annotations

from collections.abc import Iterator

from server.result_formats.reading import Located, Refused, RunToImport
from server.runs.items import MAX_ITEMS_PER_RUN, CaseError, check_item


def checked(reading: RunToImport) -> Iterator[Located]:
    """Each item, checked as the server will check it; Refused names the tool's record."""
    seen: dict[str, str] = {}
    count = 0
    for where, item in reading.items:
        count += 1
        if count > MAX_ITEMS_PER_RUN:
            raise Refused(where, f"a run holds at most {MAX_ITEMS_PER_RUN:,} items")
        try:
            row = check_item(item, item.get("position", 0))
        except CaseError as exc:
            raise Refused(where, exc.reason, exc.field or None) from None
        item_id = row["dataset_item_id"]
        if item_id is not None:
            first = seen.setdefault(item_id, where)
            if first is not where:
                raise Refused(where, f"{item_id!r} repeats {first}", reading.id_field)
        yield where, item
    if count == 0:
        raise Refused(reading.source.get("file") or "the file", "holds no items")


def streamed(reading: RunToImport) -> Iterator[Located]:
    """Each item, with only what the server cannot name by the tool's record checked here
    (the count, repeated ids); the server checks the rest, chunk by chunk."""
    seen: dict[str, str] = {}
    count = 0
    for where, item in reading.items:
        count += 1
        if count > MAX_ITEMS_PER_RUN:
            raise Refused(where, f"a run holds at most {MAX_ITEMS_PER_RUN:,} items")
        item_id = item.get("datasetItemId")
        if isinstance(item_id, str):
            first = seen.setdefault(item_id, where)
            if first is not where:
                raise Refused(where, f"{item_id!r} repeats {first}", reading.id_field)
        yield where, item
    if count == 0:
        raise Refused(reading.source.get("file") or "the file", "holds no items")
