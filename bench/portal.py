"""The portal's first paint of a big verdict, in headless Chromium, on PostgreSQL.

A finalized comparison of 3 cohorts × 500 cases × 3 trials is written as dispatch and
finalization would leave it (bench/finalize.py's rows, then `finalize`); `shipwise serve`
serves it with the built portal. Chromium opens the comparison's page cold (a new context:
no cache, no service worker) five times and measures, from the start of navigation, when the
`region` "Verdict" is visible; then the gzipped bytes of the JavaScript that first load
fetched, and the most rows any table or list on the page renders once the failure analysis
has loaded.

    .venv/bin/python bench/portal.py              # 500 cases, 5 cold loads
    .venv/bin/python bench/portal.py --loads 10

Targets (docs/portal.md): verdict visible ≤ 1,000 ms (median), ≤ 200 KB of gzipped JavaScript, ≤ 100
rows. Ends with one JSON line: {"verdict_visible_ms": …, "js_gzip_kb": …, "max_rows": …}.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    SMOKE_HELP,
    create_migrated_database,
    drop_database,
    emit,
    free_port,
    server_env,
    start_server,
    stop_server,
)
from bench.kit.browser import CHROMIUM_ARGS, chromium_path
from bench.kit.done_comparison import seed_done_comparison
from server.db import create_engine, create_sessionmaker
from server.portal.files import DEFAULT_DIR
from server.verdicts import hosted_runs, service

TARGET_MS, TARGET_KB, TARGET_ROWS = 1000.0, 200.0, 100

MOST_ROWS = """() => Math.max(0,
  ...[...document.querySelectorAll('table')].map(t => t.querySelectorAll('tbody tr').length),
  ...[...document.querySelectorAll('ul, ol')].map(l => l.children.length))"""


async def _prepare(cases: int) -> tuple[str, str, str, str]:
    """(database URL, its name, comparison id, owner token) of a finalized comparison."""
    url, name = await create_migrated_database()
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    comparison_id, ws = await seed_done_comparison(sessionmaker, cases)
    done = await service.finalize(sessionmaker=sessionmaker, comparison_id=comparison_id)
    assert done.status == "finalized", done
    await hosted_runs.complete(sessionmaker=sessionmaker, comparison_id=comparison_id)
    await engine.dispose()
    return url, name, comparison_id, ws.owner


def _cold_load(browser: Any, page_url: str, token: str) -> tuple[float, int, int]:
    """(ms from navigation to the Verdict region visible, JS bytes gzipped, most rows)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(f"sessionStorage.setItem('shipwise.token', {json.dumps(token)})")
    page = context.new_page()
    scripts: list[Any] = []
    page.on(
        "response",
        lambda r: scripts.append(r) if r.request.resource_type == "script" else None,
    )
    page.goto(page_url, wait_until="commit")
    page.get_by_role("region", name="Verdict").wait_for(state="visible", timeout=30_000)
    visible_ms = float(page.evaluate("performance.now()"))
    page.get_by_role("button", name="Debug").first.wait_for(timeout=30_000)
    rows = int(page.evaluate(MOST_ROWS))
    js_gzip = sum(len(gzip.compress(r.body())) for r in scripts)
    context.close()
    return visible_ms, js_gzip, rows


def measure(base_url: str, comparison_id: str, token: str, loads: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        raise SystemExit("bench/portal.py needs Chromium (make install installs it as root)")
    page_url = f"{base_url}/comparisons/{comparison_id}"
    results = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        _cold_load(browser, page_url, token)  # warm-up: the server's first queries
        for index in range(loads):
            visible_ms, js_gzip, rows = _cold_load(browser, page_url, token)
            emit(f"cold load #{index + 1}: verdict visible {visible_ms:.0f} ms, {rows} rows")
            results.append((visible_ms, js_gzip, rows))
        browser.close()
    median_ms = statistics.median(r[0] for r in results)
    js_kb = max(r[1] for r in results) / 1024
    max_rows = max(r[2] for r in results)
    emit(f"verdict visible: median {median_ms:.0f} ms (target ≤ {TARGET_MS:.0f})")
    emit(f"first-load JavaScript: {js_kb:.1f} KB gzipped (target ≤ {TARGET_KB:.0f})")
    emit(f"most rows rendered: {max_rows} (target ≤ {TARGET_ROWS})")
    return {
        "verdict_visible_ms": round(median_ms, 1),
        "js_gzip_kb": round(js_kb, 1),
        "max_rows": max_rows,
        "loads_ms": [round(r[0], 1) for r in results],
    }


def main(cases: int, loads: int) -> dict[str, Any]:
    if not (DEFAULT_DIR / "index.html").is_file():
        raise SystemExit("the portal is not built: run make portal (needs npm)")
    url, name, comparison_id, token = asyncio.run(_prepare(cases))
    try:
        with tempfile.TemporaryDirectory(prefix="shipwise-bench-portal-") as scratch:
            work = Path(scratch)
            port = free_port()
            server = start_server(server_env(url, work), port, work / "serve.log")
            try:
                return measure(f"http://127.0.0.1:{port}", comparison_id, token, loads)
            finally:
                stop_server(server)
    finally:
        asyncio.run(drop_database(name))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=500)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.cases, args.loads = 60, 1
    print(json.dumps(main(args.cases, args.loads) | {"smoke": args.smoke}))  # noqa: T201
