"""Every document answered directly, for the app to serve."""

from __future__ import annotations

from server.api.direct_reads import cases, comparison_page, comparisons_list, scorecards

DOCUMENTS = (
    *comparisons_list.DOCUMENTS,
    *comparison_page.DOCUMENTS,
    *scorecards.DOCUMENTS,
    *cases.DOCUMENTS,
)
