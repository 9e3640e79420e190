"""Reports at full size on PostgreSQL: a finalized 3 cohorts × 5,000 cases × 3 trials
comparison (as `bench/finalize.py` seeds it), then each report operation timed.

Measured: the first `generateReport` (it also makes every follow-up), resolving 1,000
follow-ups in one call, a second version, building and rendering the report page (at most
1,000 worse cases listed per baseline), and a sign-off (it copies every follow-up's state).

    .venv/bin/python bench/reports.py                  # full size
    .venv/bin/python bench/reports.py --cases 500      # quick

Ends with one JSON line: {"generate_first_s": …, "page_s": …, ...}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import func, select

from bench.harness import SMOKE_HELP, create_migrated_database, drop_database
from bench.kit.done_comparison import seed_done_comparison
from server.comparisons.models import Comparison
from server.db import create_engine, create_sessionmaker, utcnow
from server.reports import followups, page, page_view, signoff
from server.reports import service as report_service
from server.reports.models import Decision, FollowUp, FollowUpState
from server.verdicts import hosted_runs
from server.verdicts import service as verdict_service
from server.workspaces.models import Member
from server.workspaces.roles import Actor, Role


async def _actor(session: Any, comparison_id: str, role: Role) -> Actor:
    comparison = await session.get(Comparison, comparison_id)
    member = await session.scalar(
        select(Member).where(Member.workspace_id == comparison.workspace_id, Member.role == role)
    )
    return Actor(comparison.workspace_id, member.id, "bench", role, 10**6)


async def main(cases: int) -> dict[str, Any]:
    url, name = await create_migrated_database()
    timings: dict[str, float] = {}
    try:
        engine = create_engine(url)
        sessionmaker = create_sessionmaker(engine)
        comparison_id, _ = await seed_done_comparison(sessionmaker, cases)
        done = await verdict_service.finalize(
            sessionmaker=sessionmaker, comparison_id=comparison_id
        )
        assert done.status == "finalized", done
        await hosted_runs.complete(sessionmaker=sessionmaker, comparison_id=comparison_id)
        async with sessionmaker() as session:
            member = await _actor(session, comparison_id, Role.MEMBER)
            admin = await _actor(session, comparison_id, Role.ADMIN)

        async def timed(key: str, work: Any) -> Any:
            started = time.perf_counter()
            async with sessionmaker() as session, session.begin():
                result = await work(session)
            timings[key] = round(time.perf_counter() - started, 3)
            return result

        first = await timed(
            "generate_first_s",
            lambda s: report_service.generate(session=s, actor=member, comparison_id=comparison_id),
        )
        async with sessionmaker() as session:
            total = await session.scalar(
                select(func.count()).where(FollowUp.comparison_id == comparison_id)
            )
            ids = list(
                await session.scalars(
                    select(FollowUp.id)
                    .where(FollowUp.comparison_id == comparison_id)
                    .order_by(FollowUp.id)
                    .limit(followups.MAX_IDS)
                )
            )
        await timed(
            "resolve_1000_s",
            lambda s: followups.resolve(session=s, actor=member, follow_up_ids=ids, note="bench"),
        )
        second = await timed(
            "generate_second_s",
            lambda s: report_service.generate(session=s, actor=member, comparison_id=comparison_id),
        )

        async def render(session: Any) -> int:
            view = await page_view.build(session, second, utcnow())
            return len(page._ENV.get_template("report.html.j2").render(v=view, d=view.doc))

        size = await timed("page_s", render)
        await timed(
            "sign_off_s",
            lambda s: signoff.sign_off(
                session=s, actor=admin, report_id=second.id, decision=Decision.HOLD,
                override=False, override_justification=None,
            ),
        )  # fmt: skip
        async with sessionmaker() as session:
            still_open = await session.scalar(
                select(func.count()).where(
                    FollowUp.comparison_id == comparison_id, FollowUp.state == FollowUpState.OPEN
                )
            )
        await engine.dispose()
    finally:
        await drop_database(name)
    for key, seconds in timings.items():
        print(f"{key}: {seconds:.3f} s")  # noqa: T201
    return {
        **timings,
        "follow_ups": total,
        "open_after": still_open,
        "document_bytes": [len(first.document), len(second.document)],
        "page_bytes": size,
        "load_average": round(os.getloadavg()[0], 2),
        "cases": cases,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.cases = 100
    print(json.dumps(asyncio.run(main(args.cases)) | {"smoke": args.smoke}))  # noqa: T201
