"""Two workspaces with an object of every kind an ID takes, for the cross-workspace walks."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from bench.kit.factories import ComparisonSetup, WorkspaceFixture, actor_for, make_asset_version
from bench.kit.harness import Backend
from server.assets.models import AssetKind
from server.connections.models import ModelConnection
from server.experiments.models import Experiment
from server.ids import new_id
from server.live import service as live_service
from server.run_pairs import service as pairwise_service
from server.runs.models import Run
from server.webhooks.models import DeliveryStatus, Webhook, WebhookDelivery, WebhookEvent
from server.workspaces.models import ApiToken
from server.workspaces.roles import Role
from tests.server.reports.api import FOLLOW_UPS, finalized_comparison
from tests.server.traces.otlp_bodies import SpanSpec, new_trace_id, post_spans


@dataclass(frozen=True)
class World:
    ids: dict[str, list[str]]
    """kind → ids of that kind (the n-th argument of a kind in one call takes the n-th)."""
    setup: ComparisonSetup
    """The releases, dataset and configs the finalized comparison ran on."""


async def build_world(backend: Backend, ws: WorkspaceFixture) -> World:
    """Objects of every kind an ID takes, in `ws`, around one finalized comparison."""
    f = await finalized_comparison(backend, ws=ws)
    report = await f.generate()
    follow_up = (await f.gql(FOLLOW_UPS, {"id": report["id"]})).ok()
    rubric = await make_asset_version(
        backend.sessionmaker,
        ws,
        kind=AssetKind.RUBRIC,
        content={"text": "The better answer wins.", "scale": "PASS_FAIL"},
    )
    async with backend.sessionmaker() as session, session.begin():
        runs = list(await session.scalars(select(Run.id).where(Run.workspace_id == ws.id)))
        token = await session.scalar(select(ApiToken.id).where(ApiToken.workspace_id == ws.id))
        experiment = await session.scalar(
            select(Experiment.id).where(Experiment.workspace_id == ws.id)
        )
        job = await pairwise_service.create(
            session=session,
            actor=actor_for(ws, Role.MEMBER),
            candidate_run_id=runs[0],
            baseline_run_id=runs[1],
            rubric_version_id=rubric.id,
            judge_model_config_version_id=f.setup.model_config_version_ids[0],
        )
        webhook = Webhook(
            id=new_id("wh"),
            workspace_id=ws.id,
            url="http://127.0.0.1:9/hook",
            secret_encrypted=backend.state.secret_box.encrypt("whsec-test-0123456789abcdef"),
            events=[WebhookEvent.COMPARISON_FINISHED.value],
            enabled=True,
            created_by_member_id=ws.member_ids[Role.OWNER],
        )
        session.add(webhook)
        await session.flush()
        delivery = WebhookDelivery(
            id=new_id("whd"),
            workspace_id=ws.id,
            webhook_id=webhook.id,
            event_id=new_id("evt"),
            event=WebhookEvent.COMPARISON_FINISHED,
            subject_id=f.comparison_id,
            payload={},
            status=DeliveryStatus.FAILED,
        )
        session.add(delivery)
    assert token is not None and experiment is not None and len(runs) >= 2
    trace_id = new_trace_id()
    await post_spans(backend, [SpanSpec(trace_id, "agent")], token=ws.owner)
    async with backend.sessionmaker() as session, session.begin():
        live = await live_service.create(
            session=session,
            actor=actor_for(ws, Role.MEMBER),
            spec=live_service.LiveSpec(
                service="agent-app", candidate_release="v2", baseline_releases=["v1"]
            ),
        )
    world = {
        "member": ws.member_ids[Role.VIEWER],
        "token": token,
        "connection": f.setup.connection_id or await _connection_of(backend, ws),
        "experiment": experiment,
        "dataset": f.setup.dataset_id,
        "dataset_version": f.setup.dataset_version_id,
        "comparison": f.comparison_id,
        "report": report["id"],
        "follow_up": follow_up["report"]["followUps"]["edges"][0]["node"]["id"],
        "pairwise_job": job.id,
        "webhook_delivery": delivery.id,
        "rubric_version": rubric.id,
        "model_config_version": f.setup.model_config_version_ids[0],
        "prompt_version": f.setup.prompt_version_ids[0],
        "release": f.setup.release_ids[0],
        "asset": rubric.asset_id,
        "trace": trace_id,
        "live_comparison": live.id,
    }
    ids = {kind: [object_id] for kind, object_id in world.items()} | {"run": runs[:2]}
    return World(ids=ids, setup=f.setup)


async def _connection_of(backend: Backend, ws: WorkspaceFixture) -> str:
    async with backend.sessionmaker() as session:
        found = await session.scalar(
            select(ModelConnection.id).where(ModelConnection.workspace_id == ws.id)
        )
    assert found is not None
    return found
