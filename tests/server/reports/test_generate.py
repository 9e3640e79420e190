"""`generateReport`: frozen, byte-stable versions of a finalized comparison's report."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import CREATE
from server.comparisons.models import Comparison
from server.db import utcnow
from server.reports import document
from server.reports.models import Report
from server.verdicts.models import ComparisonVerdict
from server.workspaces.roles import Role
from tests.server.reports.api import (
    AUDIT,
    GENERATE,
    REPORT,
    REPORTS,
    RESOLVE_MANY,
    finalized_comparison,
)

SPENT = "query($id: ID!) { comparison(id: $id) { spentCentsSoFar } }"


async def test_versions_freeze_and_version_one_never_changes(backend: Backend) -> None:
    f = await finalized_comparison(backend)
    first = await f.generate()
    assert (first["version"], first["isLatest"], first["signOff"]) == (1, True, None)
    assert first["pagePath"] == f"/reports/{first['id']}.html"
    stored = first["document"]
    assert first["documentSha256"] == hashlib.sha256(stored.encode()).hexdigest()
    # One JSON document, serialized once with sorted keys.
    doc = json.loads(stored)
    assert stored == json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert doc["version"] == 1 and doc["comparison"]["id"] == f.comparison_id
    assert doc["scorecard"]["usableCases"] == 24
    chips = [c["text"] for c in doc["summary"]["chips"]]
    assert chips[0].startswith("Regressed vs ") and "−33.3 points, outside the noise" in chips[0]
    baselines = doc["failureAnalysis"]["baselines"]
    assert [(b["baselineCohortIndex"], b["worseCount"], b["notListed"]) for b in baselines] == [
        (1, 8, 0),
        (2, 8, 0),
    ]
    worse = baselines[0]["worseCases"]
    assert [c["datasetItemId"] for c in worse] == [f"q-{i:03d}" for i in range(16, 24)]
    assert {(c["candidatePassFraction"], c["baselinePassFraction"]) for c in worse} == {(0.0, 1.0)}
    assert {c["followUp"]["state"] for c in worse} == {"OPEN"}
    assert doc["followUps"] == {"open": 16, "resolved": 0, "total": 16}
    facts = doc["facts"]
    assert (facts["split"], facts["cases"], facts["trialsPerCase"]) == ("DEV", 24, 1)
    assert facts["checks"] == ["Contains the expected output"]
    spent = (await f.gql(SPENT, {"id": f.comparison_id})).ok()["comparison"]["spentCentsSoFar"]
    assert facts["costCents"] == spent > 0
    assert f"Cost of this comparison: ${spent / 100:,.2f}." in facts["text"]
    assert facts["text"].startswith("Dataset ")
    assert "Dev split · 24 cases (24 usable, 0 not run) · 1 trial per case" in facts["text"]
    assert "sim-0, sim-1, sim-2" not in facts["text"]  # each cohort has its own connection
    assert "(simulated): sim-0" in facts["text"]
    assert facts["text"].endswith(
        "Hosted run: the prompt alone, one model call per case and trial."
    )
    assert "Cost of this comparison: $" in facts["text"]
    # The policy and the decision, frozen as the comparison shows them.
    assert doc["decision"]["sentence"] == f.comparison["decision"]["sentence"]
    assert doc["decision"]["outcome"] == "DONT_SHIP"
    assert doc["shipPolicy"]["qualityMarginPoints"] == 2.0
    assert doc["shipPolicy"]["registeredAt"] == f.comparison["shipPolicy"]["registeredAt"]

    # Resolving follow-ups changes what the next version freezes, never version 1.
    follow_ups = await f.follow_ups(first["id"], b=1)
    ids = [fu["id"] for fu in follow_ups]
    (await f.gql(RESOLVE_MANY, {"ids": ids, "note": "known flaky capital names"})).ok()
    second = await f.generate()
    assert second["version"] == 2 and second["document"] != stored
    doc2 = json.loads(second["document"])
    assert doc2["followUps"] == {"open": 8, "resolved": 8, "total": 16}
    assert {
        c["followUp"]["state"] for c in doc2["failureAnalysis"]["baselines"][0]["worseCases"]
    } == {"RESOLVED"}
    again = (await f.gql(REPORT, {"id": first["id"]})).ok()["report"]
    assert again["document"] == stored  # byte-identical
    assert again["documentSha256"] == first["documentSha256"]
    assert again["isLatest"] is False
    listed = (await f.gql(REPORTS, {"id": f.comparison_id})).ok()["comparison"]
    assert [(r["version"], r["isLatest"]) for r in listed["reports"]] == [(1, False), (2, True)]
    assert listed["verdict"] is None
    # The database refuses to rewrite a frozen document.
    async with backend.sessionmaker() as session:
        try:
            async with session.begin():
                await session.execute(
                    update(Report).where(Report.id == first["id"]).values(document="{}")
                )
        except (DBAPIError, IntegrityError):
            pass
        else:
            raise AssertionError("a frozen report was rewritten")
        kept = await session.scalar(select(Report.document).where(Report.id == first["id"]))
    assert kept == stored
    # Both generations are audited.
    events = (await f.gql(AUDIT, {"action": "report.generate"}, role=Role.VIEWER)).ok()
    nodes = [e["node"] for e in events["auditEvents"]["edges"]]
    assert {n["targetId"] for n in nodes} == {first["id"], second["id"]}
    assert {n["details"]["version"] for n in nodes} == {1, 2}
    assert {n["actorRole"] for n in nodes} == {"MEMBER"}


async def test_only_a_finalized_comparison_has_a_report(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    f = await finalized_comparison(backend, ws=ws)
    created = (
        await backend.gql(CREATE, {"input": f.setup.input()}, token=ws.tokens[Role.MEMBER])
    ).ok()
    setup_id = created["createComparison"]["id"]
    result = await backend.gql(GENERATE, {"id": setup_id}, token=ws.tokens[Role.MEMBER])
    assert result.codes == ["CONFLICT"]
    assert result.errors[0]["extensions"]["reason"] == "NOT_FINALIZED"
    listed = (await f.gql(REPORTS, {"id": setup_id})).ok()["comparison"]
    assert listed["reports"] == []
    unknown = await f.gql(GENERATE, {"id": "cmp_unknown"})
    assert unknown.codes == ["NOT_FOUND"]


async def test_at_most_the_listing_limit_per_baseline_with_the_count_of_the_rest(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The page lists at most 1,000 worse cases per baseline; 5 here keeps the run small.
    monkeypatch.setattr(document, "LISTED_PER_BASELINE", 5)
    f = await finalized_comparison(backend)
    report = await f.generate()
    baselines = json.loads(report["document"])["failureAnalysis"]["baselines"]
    assert [(len(b["worseCases"]), b["notListed"]) for b in baselines] == [(5, 3), (5, 3)]
    assert len(await f.follow_ups(report["id"])) == 16  # every follow-up exists
    page = await backend.client.get(
        report["pagePath"], headers={"Authorization": f"Bearer {f.token(Role.VIEWER)}"}
    )
    assert page.status_code == 200
    assert page.text.count("And 3 more not listed here") == 2
    assert page.text.count("Read the 8 cases that got worse") == 2


async def test_staleness_is_frozen_at_generation_and_shown_current_on_the_page(
    backend: Backend,
) -> None:
    f = await finalized_comparison(backend)
    fresh = await f.generate()
    assert json.loads(fresh["document"])["staleness"] is None
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(ComparisonVerdict)
            .where(ComparisonVerdict.comparison_id == f.comparison_id)
            .values(finalized_at=utcnow() - timedelta(days=9, hours=1))
        )
        await session.execute(
            update(Comparison)
            .where(Comparison.id == f.comparison_id)
            .values(finalized_at=utcnow() - timedelta(days=9, hours=1))
        )
    note = "This verdict is 9 days old. The provider may have changed the model since then."
    stale = await f.generate()
    assert json.loads(stale["document"])["staleness"] == {"days": 9, "note": note}
    headers = {"Authorization": f"Bearer {f.token(Role.VIEWER)}"}
    page = await backend.client.get(fresh["pagePath"], headers=headers)
    current = page.text.split('id="staleness-current"', 1)[1].split("</p>", 1)[0]
    assert note in current  # version 1 was fresh when frozen; today it is stale
    assert "When frozen: " + note not in page.text
    assert "A newer version exists" in page.text
    newer = await backend.client.get(stale["pagePath"], headers=headers)
    assert "When frozen: " + note in newer.text
