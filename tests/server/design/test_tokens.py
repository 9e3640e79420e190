"""The design tokens: one file for the portal and the server-rendered pages."""

from __future__ import annotations

import re
from pathlib import Path

from server.design import TOKENS_CSS

ROOT = Path(__file__).resolve().parents[3]
PORTAL_TOKENS = ROOT / "web" / "src" / "styles" / "tokens.css"


def test_the_server_copy_is_the_portal_s_tokens_file() -> None:
    assert PORTAL_TOKENS.read_text(encoding="utf-8") == TOKENS_CSS, (
        "server/design/tokens.css drifted: copy web/src/styles/tokens.css over it"
    )


def test_the_portal_styles_start_from_the_tokens() -> None:
    styles = (ROOT / "web" / "src" / "styles.css").read_text(encoding="utf-8")
    assert styles.startswith('@import "./styles/tokens.css";')


def test_the_tokens_name_every_verdict_and_decision_colour() -> None:
    defined = set(re.findall(r"(--[a-z0-9-]+):", TOKENS_CSS))
    for outcome in ("regressed", "improved", "equivalent", "inconclusive"):
        assert {f"--verdict-{outcome}", f"--verdict-{outcome}-bg"} <= defined
    for decision in ("ship", "hold", "block"):
        assert {f"--decision-{decision}", f"--decision-{decision}-bg"} <= defined
    assert {"--text-md", "--space-3", "--font-body"} <= defined
    # Custom properties only: no rule that styles an element of the page that loads it.
    assert re.sub(r"/\*.*?\*/", "", TOKENS_CSS, flags=re.S).strip().startswith(":root {")
