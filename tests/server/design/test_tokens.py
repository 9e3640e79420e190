"""The design tokens: one file for the portal and the server-rendered pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.design import TOKENS_CSS

ROOT = Path(__file__).resolve().parents[3]
SERVER_TOKENS = ROOT / "server" / "design" / "tokens.css"
PORTAL_STYLES = ROOT / "web" / "src" / "styles.css"


def test_the_portal_styles_start_from_the_server_s_tokens_file() -> None:
    first = PORTAL_STYLES.read_text(encoding="utf-8").splitlines()[0]
    imported = first.removeprefix('@import "').removesuffix('";')
    assert first == f'@import "{imported}";'
    assert (PORTAL_STYLES.parent / imported).resolve() == SERVER_TOKENS
    assert SERVER_TOKENS.read_text(encoding="utf-8") == TOKENS_CSS


def test_no_other_tokens_file_under_the_portal_s_sources() -> None:
    copies = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "web" / "src").rglob("*.css")
        if "--verdict-regressed:" in path.read_text(encoding="utf-8")
    ]
    assert copies == []


def test_the_built_portal_carries_the_tokens() -> None:
    built = sorted((ROOT / "web" / "dist" / "assets").glob("*.css"))
    if not built:
        pytest.skip("the portal is not built (make portal needs npm)")
    css = "".join(path.read_text(encoding="utf-8") for path in built)
    for name in ("--verdict-regressed", "--decision-hold", "--space-3", "--font-body"):
        assert f"{name}:" in css


def test_the_tokens_name_every_verdict_and_decision_colour() -> None:
    defined = set(re.findall(r"(--[a-z0-9-]+):", TOKENS_CSS))
    for outcome in ("regressed", "improved", "equivalent", "inconclusive"):
        assert {f"--verdict-{outcome}", f"--verdict-{outcome}-bg"} <= defined
    for decision in ("ship", "hold", "block"):
        assert {f"--decision-{decision}", f"--decision-{decision}-bg"} <= defined
    assert {"--text-md", "--space-3", "--font-body"} <= defined
    # Custom properties only: no rule that styles an element of the page that loads it.
    assert re.sub(r"/\*.*?\*/", "", TOKENS_CSS, flags=re.S).strip().startswith(":root {")
