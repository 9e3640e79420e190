"""The design tokens the server-rendered pages (the report, the run diff) share with the
portal: `server/design_tokens.css` is a copy of web/src/styles/tokens.css, kept identical by a
test (tests/test_design_tokens.py), inlined at the top of each page's `<style>` so the pages
still load nothing from elsewhere (docs/architecture.md, "One visual language")."""

from __future__ import annotations

from functools import cache
from pathlib import Path

TOKENS_FILE = Path(__file__).with_name("design_tokens.css")


@cache
def tokens_css() -> str:
    """The tokens: custom properties on `:root`, no rule that styles an element."""
    return TOKENS_FILE.read_text(encoding="utf-8")
