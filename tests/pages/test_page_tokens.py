"""One visual language (issue 34, point 7): the report and run diff pages use the portal's
design tokens — the same file, inlined — and take their colours, type and spacing from them."""

from __future__ import annotations

import re
from pathlib import Path

from server.design import TOKENS_CSS
from server.runs.page_html import STYLE

ROOT = Path(__file__).resolve().parents[2]
SERVER_TOKENS = ROOT / "server" / "design" / "tokens.css"
TEMPLATES = ROOT / "server" / "reports" / "templates"
HEX = re.compile(r"#[0-9a-fA-F]{3,8}\b")


def _outside_tokens(css: str) -> str:
    assert TOKENS_CSS in css  # the tokens, inlined whole
    return css.replace(TOKENS_CSS, "")


def test_the_pages_inline_the_one_tokens_file() -> None:
    assert SERVER_TOKENS.read_text(encoding="utf-8") == TOKENS_CSS
    for name in ("--font-body", "--text-md", "--space-4", "--ink", "--verdict-regressed",
                 "--decision-ship"):  # fmt: skip
        assert f"{name}:" in TOKENS_CSS


def test_the_diff_page_takes_its_colours_from_the_tokens() -> None:
    own = _outside_tokens(STYLE)
    assert HEX.findall(own) == []
    assert "var(--verdict-regressed)" in own and "var(--font-body)" in own


def test_the_report_and_refusal_pages_take_theirs_from_the_tokens() -> None:
    for name in ("report.html.j2", "refusal.html.j2"):
        text = (TEMPLATES / name).read_text()
        style = text.split("<style>", 1)[1].split("</style>", 1)[0]
        screen = style.split("@media print", 1)[0]  # print keeps plain black on white
        assert "{{ tokens_css }}" in screen
        assert HEX.findall(screen) == [], name
        assert "var(--font-body)" in screen
    report = (TEMPLATES / "report.html.j2").read_text()
    for token in ("--verdict-regressed", "--verdict-improved", "--verdict-equivalent",
                  "--verdict-inconclusive", "--decision-ship", "--decision-hold",
                  "--decision-block"):  # fmt: skip
        assert f"var({token})" in report, token
