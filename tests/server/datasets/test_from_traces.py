"""`createDatasetFromTraces` and its preview over GraphQL: a seeded, de-duplicated sample of
the traces a filter matches, stratified with at least one trace a stratum, sealed as a new
version with `metadata.sourceTraceId` on each case."""

from __future__ import annotations

from sqlalchemy import func, select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.assets.models import AssetVersion
from server.audit.models import AuditEvent
from server.workspaces.roles import Role
from tests.server.datasets.traces_api import cases_of, create, post_chats, preview

SCORE = (
    'mutation($t: ID!, $v: Float!) { scoreTrace(traceId: $t, name: "thumb", value: $v) { value } }'
)


async def test_a_stratified_deduplicated_sample_sealed_with_its_source_traces(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    common = [f"Where is order {n}?" for n in range(30)]
    r1 = await post_chats(backend, token, common, release="r1")
    # The same questions again, differently cased and spaced: duplicates of r1's.
    again = await post_chats(
        backend, token, [f"  where IS   order {n}? " for n in range(10)], release="r1"
    )
    r2 = await post_chats(backend, token, ["Cancel my plan", "Refund order 3"], release="r2")
    other = await post_chats(backend, token, ["hello"], service="blog")
    sample = {"size": 8, "seed": 7, "stratifyBy": "RELEASE"}

    shown = (await preview(backend, token, name="from prod", sample=sample)).ok()
    counts = shown["previewDatasetFromTraces"]
    assert counts["dataset"] is None and counts["version"] is None
    versions = select(func.count()).where(AssetVersion.workspace_id == ws.id)
    async with backend.sessionmaker() as session:
        before = await session.scalar(versions)
    assert before == 0  # the preview wrote nothing

    made = (
        await create(backend, token, name="from prod", filter={"service": "shop"}, sample=sample)
    ).ok()["createDatasetFromTraces"]
    assert made["matched"] == 42
    assert made["duplicates"] == 10
    assert made["taken"] == 8
    strata = {s["key"]: s for s in made["strata"]}
    assert strata["r1"] == {"key": "r1", "matched": 40, "taken": 7}
    assert strata["r2"] == {"key": "r2", "matched": 2, "taken": 1}  # 8·2/32 rounds to 0
    assert made["version"]["state"] == "SEALED" and made["version"]["caseCount"] == 8
    assert counts["matched"] == 43  # the preview had no service filter
    async with backend.sessionmaker() as session:
        assert await session.scalar(versions) == 1
        audited = await session.scalar(
            select(AuditEvent.details).where(
                AuditEvent.workspace_id == ws.id, AuditEvent.action == "dataset.create_from_traces"
            )
        )
    assert audited is not None and audited["taken"] == 8

    cases = await cases_of(backend, token, made["version"]["id"])
    assert len(cases) == 8
    for case in cases:
        assert case["metadata"] == {"sourceTraceId": case["datasetItemId"]}
        assert case["datasetItemId"] in set(r1) | set(again) | set(r2)
        assert case["datasetItemId"] not in other
        assert case["split"] == "DEV" and case["expected"] is None
        # The first call's input messages without the system prompt.
        assert [turn["role"] for turn in case["input"]] == ["user"]
    texts = [" ".join(c["input"][0]["content"].lower().split()) for c in cases]
    assert len(set(texts)) == 8
    assert sum(1 for c in cases if c["datasetItemId"] in r2) == 1

    # The same seed gives the same cases, in the same order; another seed others.
    repeated = (
        await create(
            backend, token, datasetId=made["dataset"]["id"], filter={"service": "shop"},
            sample=sample,
        )
    ).ok()["createDatasetFromTraces"]  # fmt: skip
    assert repeated["version"]["number"] == made["version"]["number"] + 1
    assert repeated["version"]["contentHash"] == made["version"]["contentHash"]
    same = await cases_of(backend, token, repeated["version"]["id"])
    assert [c["datasetItemId"] for c in same] == [c["datasetItemId"] for c in cases]
    reseeded = (
        await preview(backend, token, filter={"service": "shop"}, sample={**sample, "seed": 8})
    ).ok()["previewDatasetFromTraces"]
    assert reseeded["taken"] == 8

    # Without de-duplication the duplicates are candidates like the rest.
    loose = (
        await preview(
            backend, token, filter={"service": "shop"}, sample={"size": 100, "dedupe": False}
        )
    ).ok()["previewDatasetFromTraces"]
    assert (loose["taken"], loose["duplicates"]) == (42, 0)


async def test_other_seeds_choose_other_cases(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await post_chats(backend, token, [f"question {n}" for n in range(40)])
    chosen = []
    for seed in (1, 2):
        made = (
            await create(backend, token, name=f"seed {seed}", sample={"size": 5, "seed": seed})
        ).ok()["createDatasetFromTraces"]
        chosen.append(
            {c["datasetItemId"] for c in await cases_of(backend, token, made["version"]["id"])}
        )
    assert chosen[0] != chosen[1]


async def test_strata_by_model_service_and_attribute_each_get_one(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await post_chats(
        backend, token, [f"a {n}" for n in range(50)], model="big", extra={"app.tier": "free"}
    )
    await post_chats(
        backend, token, ["b 1"], model="small", service="web", extra={"app.tier": "pro"}
    )
    await post_chats(backend, token, ["c 1"], model="small", service="web")
    for by, extra, expected in (
        ("MODEL", {}, {"big": 4, "small": 1}),
        ("SERVICE", {}, {"shop": 4, "web": 1}),
        ("ATTRIBUTE", {"attribute": "app.tier"}, {"free": 3, "pro": 1, None: 1}),
    ):
        sample = {"size": 5, "seed": 1, "stratifyBy": by, **extra}
        found = (await preview(backend, token, sample=sample)).ok()["previewDatasetFromTraces"]
        assert {s["key"]: s["taken"] for s in found["strata"]} == expected, by
        assert found["taken"] == 5


async def test_expected_from_an_attribute_or_from_outputs_with_positive_feedback(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    labelled = await post_chats(
        backend, token, ["2+2?"], extra={"shipwise.expected": "4", "app.gold": "four"}
    )
    liked, disliked = await post_chats(backend, token, ["liked", "disliked"])
    for trace_id, value in ((liked, 1.0), (disliked, 0.0)):
        (
            await backend.gql(
                SCORE,
                {"t": trace_id, "v": value},
                token=token,
            )
        ).ok()
    by_attribute = (
        await create(backend, token, name="a", sample={"size": 10}, expectedFrom="ATTRIBUTE")
    ).ok()["createDatasetFromTraces"]
    assert by_attribute["withExpected"] == 1
    cases = {
        c["datasetItemId"]: c for c in await cases_of(backend, token, by_attribute["version"]["id"])
    }
    assert cases[labelled[0]]["expected"] == "4"
    named = (
        await preview(
            backend, token, sample={"size": 10}, expectedFrom="ATTRIBUTE",
            expectedAttribute="app.gold",
        )
    ).ok()["previewDatasetFromTraces"]  # fmt: skip
    assert named["withExpected"] == 1

    by_feedback = (
        await create(
            backend, token, name="b", sample={"size": 10}, expectedFrom="OUTPUT_WITH_FEEDBACK"
        )
    ).ok()["createDatasetFromTraces"]
    cases = {
        c["datasetItemId"]: c for c in await cases_of(backend, token, by_feedback["version"]["id"])
    }
    assert cases[liked]["expected"] == "answer to liked"
    assert cases[disliked]["expected"] is None
    assert cases[labelled[0]]["expected"] is None
    assert by_feedback["withExpected"] == 1
