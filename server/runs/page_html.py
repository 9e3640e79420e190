"""The run diff page's HTML: one self-contained document (inline CSS, no script, no assets),
rendered from Jinja2 templates (`server/runs/templates/`) with autoescape on, as reports are.

Status tabs and paging are plain links (they keep the signed token); each case is a
`<details>` element that expands to its evaluators' deltas.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from server.design import TOKENS_CSS
from server.runs.cases import DiffCase
from server.runs.diff import DiffSummary
from server.words import words
from stats.movement import CaseFilter

TABS = tuple(CaseFilter)
INPUT_PREVIEW = 160

STYLE = (
    TOKENS_CSS
    + """
body{font:var(--text-md)/var(--line-height) var(--font-body);margin:0;color:var(--ink);
background:var(--panel)}
header{background:var(--bg);border-bottom:1px solid var(--line);
padding:var(--space-3) var(--space-5)}
header h1{font-size:var(--text-xl);margin:0}
header p{margin:var(--space-1) 0 0;color:var(--muted);font-size:var(--text-sm)}
main{padding:var(--space-4) var(--space-5);max-width:1200px}
h2{font-size:var(--text-lg)}
a{color:var(--accent)}
.cards{display:flex;flex-wrap:wrap;gap:var(--space-3);margin-bottom:var(--space-4)}
.card{background:var(--bg);border:1px solid var(--line);border-radius:var(--radius);
padding:var(--space-2) var(--space-3);min-width:120px}
.card b{display:block;font-size:var(--text-xl)}
.card span{color:var(--muted);font-size:var(--text-xs)}
.gate{font-weight:600;display:inline-block;padding:var(--space-1) var(--space-3);
border-radius:var(--radius)}
.gate.bad{color:var(--verdict-regressed);background:var(--verdict-regressed-bg)}
.gate.good{color:var(--verdict-improved);background:var(--verdict-improved-bg)}
.gate.none{color:var(--verdict-inconclusive);background:var(--verdict-inconclusive-bg)}
table{border-collapse:collapse;width:100%;background:var(--bg);font-size:var(--text-sm)}
th,td{text-align:left;padding:var(--space-1) var(--space-2);border-bottom:1px solid var(--line);
vertical-align:top}
th{background:var(--panel);font-weight:600;font-size:var(--text-xs);color:var(--muted)}
nav.tabs{display:flex;gap:var(--space-1);margin:var(--space-4) 0 0}
nav.tabs a{padding:var(--space-2) var(--space-3);border:1px solid var(--line);border-bottom:none;
border-radius:var(--radius) var(--radius) 0 0;text-decoration:none;color:var(--ink);
background:var(--panel)}
nav.tabs a[aria-current=page]{background:var(--bg);font-weight:600}
.cases{border:1px solid var(--line);background:var(--bg)}
details{border-bottom:1px solid var(--line)}
details>summary{display:grid;grid-template-columns:110px 80px 180px 60px 1fr;gap:var(--space-2);
padding:var(--space-2) var(--space-3);cursor:pointer;list-style:none}
details>summary::-webkit-details-marker{display:none}
details[open]>summary{background:var(--panel)}
details .more{padding:var(--space-2) var(--space-4) var(--space-4)}
pre{white-space:pre-wrap;word-break:break-word;background:var(--panel);padding:var(--space-2);
border-radius:var(--radius);margin:var(--space-2) 0;font-family:var(--font-mono)}
.status{font-weight:600}
.REGRESSED{color:var(--verdict-regressed)}.IMPROVED{color:var(--verdict-improved)}
.NO_CHANGE{color:var(--muted)}.ADDED{color:var(--info)}.REMOVED{color:var(--warn)}
.pager{display:flex;justify-content:space-between;padding:var(--space-3)}
.empty{padding:var(--space-4);color:var(--muted)}
"""
)


_ENV = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=select_autoescape(["html", "j2"], default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def _number(value: float | None, digits: int = 3, signed: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def _p(value: float | None) -> str:
    return "—" if value is None else f"{value:.4g}"


def _input_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _preview(text: str) -> str:
    return text if len(text) <= INPUT_PREVIEW else text[:INPUT_PREVIEW] + "…"


_ENV.filters.update(
    number=_number,
    signed=lambda value: _number(value, signed=True),
    p=_p,
    words=words,
    input_text=_input_text,
    preview=_preview,
)
_ENV.globals["style"] = Markup(STYLE)  # our own CSS, inlined as it is


def _gate(summary: DiffSummary) -> tuple[str, str]:
    if summary.regression:
        return "Significant regression", "bad"
    if summary.significant:
        return "Significant improvement", "good"
    return f"Not significant ({words(summary.significance_reason).lower()})", "none"


def page_html(
    *,
    title: str,
    summary: DiffSummary,
    cases: Sequence[DiffCase],
    status: str,
    total: int,
    base_query: dict[str, str],
    path: str,
    next_cursor: str | None,
    has_previous: bool,
) -> str:
    """The whole page (`templates/run_diff.html.j2`): header, summary, the status tabs and
    one page of cases. Autoescaped: every input, id and name is text, never markup."""

    def link(**changes: str | None) -> str:
        query = {k: v for k, v in {**base_query, **changes}.items() if v is not None}
        return f"{path}?{urlencode(query)}"

    gate, gate_css = _gate(summary)
    interval = (
        "—"
        if summary.delta_low is None
        else f"[{summary.delta_low:+.3f}, {summary.delta_high or 0:+.3f}]"
    )
    return _ENV.get_template("run_diff.html.j2").render(
        title=title,
        summary=summary,
        gate=gate,
        gate_css=gate_css,
        interval=interval,
        epsilon=f"{summary.epsilon:g}",
        tabs=TABS,
        status=status,
        total=total,
        cases=cases,
        link=link,
        next_cursor=next_cursor,
        has_previous=has_previous,
    )


def error_html(status: int, message: str) -> str:
    """A refusal page (`templates/run_diff_error.html.j2`); the message is escaped."""
    return _ENV.get_template("run_diff_error.html.j2").render(status=status, message=message)
