"""The reads `server.api.http.response_cache` may answer from memory, each with its stamp: every
column its allowed fields show, read fresh on each request."""

from __future__ import annotations

from server.api.http.cached_reads import comparison, comparisons, live
from server.api.http.cached_reads.shape import Rule

RULES: tuple[Rule, ...] = (comparison.RULE, comparisons.RULE, live.RULE)
