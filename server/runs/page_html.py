"""The run diff page's HTML: one self-contained document (inline CSS, no script, no assets).

Status tabs and paging are plain links (they keep the signed token); each case is a
`<details>` element that expands to its evaluators' deltas.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import urlencode

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


def _number(value: float | None, digits: int = 3, signed: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def _p(value: float | None) -> str:
    return "—" if value is None else f"{value:.4g}"


def _card(label: str, value: str, css: str = "") -> str:
    return f'<div class="card {css}"><b>{escape(value)}</b><span>{escape(label)}</span></div>'


def _gate(summary: DiffSummary) -> tuple[str, str]:
    if summary.regression:
        return "Significant regression", "bad"
    if summary.significant:
        return "Significant improvement", "good"
    return f"Not significant ({words(summary.significance_reason).lower()})", "none"


def summary_html(summary: DiffSummary) -> str:
    gate, css = _gate(summary)
    cards = [
        _card("baseline pass rate", _number(summary.baseline_pass_rate)),
        _card("candidate pass rate", _number(summary.candidate_pass_rate)),
        _card("pass-rate delta", _number(summary.pass_rate_delta, signed=True)),
        _card(
            "95% interval",
            "—"
            if summary.delta_low is None
            else f"[{summary.delta_low:+.3f}, {summary.delta_high or 0:+.3f}]",
        ),
        _card(f"p ({words(summary.method)})", _p(summary.p_value)),
        _card(
            "pass flips",
            f"{summary.pass_flips_to_fail} pass → fail · {summary.pass_flips_to_pass} fail → pass",
        ),
        _card("regressed", str(summary.regressed_count)),
        _card("improved", str(summary.improved_count)),
        _card("no change", str(summary.no_change_count)),
        _card("added", str(summary.added_count)),
        _card("removed", str(summary.removed_count)),
    ]
    rows = "".join(
        f"<tr><td>{escape(e.name)}</td><td>{e.paired_count}</td>"
        f"<td>{_number(e.baseline_mean)}</td><td>{_number(e.candidate_mean)}</td>"
        f"<td>{_number(e.delta, signed=True)}</td>"
        f"<td>[{e.low:+.3f}, {e.high:+.3f}]</td><td>{_p(e.p_value)}</td>"
        f"<td>{_p(e.adjusted_p_value)}</td><td>{'yes' if e.significant else 'no'}</td></tr>"
        for e in summary.evaluators
    )
    evaluators = (
        '<h2>Evaluators</h2><table class="evaluators"><thead><tr><th>evaluator</th>'
        "<th>pairs</th><th>baseline</th><th>candidate</th><th>delta</th><th>95% interval</th>"
        "<th>p</th><th>Holm p</th><th>significant</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
        if rows
        else ""
    )
    return (
        f'<p class="gate {css}" id="gate">{escape(gate)}</p>'
        f'<div class="cards" id="summary">{"".join(cards)}</div>'
        f"<p>{summary.paired_count} pairs by {words(summary.pairing)}, "
        f"{summary.graded_pair_count} graded on both sides; ε {summary.epsilon:g}.</p>" + evaluators
    )


def _input_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def case_html(case: DiffCase) -> str:
    text = _input_text(case.input)
    preview = text if len(text) <= INPUT_PREVIEW else text[:INPUT_PREVIEW] + "…"
    rows = "".join(
        f"<tr><td>{escape(e.name)}</td><td>{_number(e.baseline_mean)}</td>"
        f"<td>{_number(e.candidate_mean)}</td><td>{_number(e.delta, signed=True)}</td>"
        f'<td class="{e.status}">{words(e.status)}</td>'
        f"<td>{'yes' if e.significant else 'no'}</td></tr>"
        for e in case.evaluators
    )
    evaluators = (
        '<table class="deltas"><thead><tr><th>evaluator</th><th>baseline</th><th>candidate</th>'
        f"<th>delta</th><th>status</th><th>significant (run)</th></tr></thead><tbody>{rows}"
        "</tbody></table>"
        if rows
        else '<p class="empty">No evaluator scores on this item.</p>'
    )
    fractions = (
        f"pass fraction {_number(case.baseline_pass_fraction)} → "
        f"{_number(case.candidate_pass_fraction)}"
    )
    return (
        f'<details class="case" data-status="{case.status}">'
        f'<summary><span class="status {case.status}">{words(case.status)}</span>'
        f"<span>#{case.position}</span><span>{escape(case.dataset_item_id or '—')}</span>"
        f"<span>{'flip' if case.pass_flip else ''}</span><span>{escape(preview)}</span></summary>"
        f'<div class="more"><p>{fractions}'
        + (
            f"; baseline position {case.baseline_position}"
            if case.baseline_position is not None
            else ""
        )  # fmt: skip
        + f"</p><pre>{escape(text)}</pre>{evaluators}</div></details>"
    )


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
    """The whole page: header, summary, the status tabs and one page of cases."""

    def link(**changes: str | None) -> str:
        query = {k: v for k, v in {**base_query, **changes}.items() if v is not None}
        return escape(f"{path}?{urlencode(query)}")

    tabs = "".join(
        f'<a href="{link(status=tab, after=None)}" data-tab="{tab}"'
        + (' aria-current="page"' if tab == status else "")
        + f">{words(tab)}</a>"
        for tab in TABS
    )
    body = "".join(case_html(case) for case in cases) or '<p class="empty">No cases.</p>'
    first = f'<a href="{link(after=None)}">First page</a>' if has_previous else "<span></span>"
    more = f'<a href="{link(after=next_cursor)}" rel="next">Next page</a>' if next_cursor else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<header><h1>{escape(title)}</h1><p>candidate {escape(summary.candidate_run_id)} · "
        f"baseline {escape(summary.baseline_run_id)}</p></header><main>"
        f"{summary_html(summary)}"
        f'<nav class="tabs" aria-label="case status">{tabs}</nav>'
        f'<section class="cases" id="cases"><p class="total">{total} {status.lower()} cases'
        f'</p>{body}<div class="pager">{first}{more}</div></section>'
        "</main></body></html>"
    )


def error_html(status: int, message: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{status}</title><style>{STYLE}</style></head><body><main>"
        f"<h1>{status}</h1><p>{escape(message)}</p></main></body></html>"
    )
