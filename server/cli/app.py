"""The `shipwise` command: admin commands act on the database; the rest are API clients."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

import typer

from server.cli.commands.compare import ExitOneOnUsageError, compare_command
from server.cli.commands.comparison import comparison_app
from server.cli.commands.dataset import dataset_app
from server.cli.commands.export import export_app
from server.cli.commands.gate import gate_command
from server.cli.commands.live import live_app
from server.cli.commands.runs import diff_command, run_app
from server.cli.groups import command_group
from server.settings import Settings, get_settings

if TYPE_CHECKING:
    from server.cli.demo import Demo

app = command_group(__doc__ or "", add_completion=False)
workspace_app = command_group("Workspaces (admin, on the database).")
app.add_typer(workspace_app, name="workspace")
app.add_typer(dataset_app, name="dataset")
app.add_typer(run_app, name="run")
app.command("diff")(diff_command)
app.command("gate")(gate_command)
app.add_typer(comparison_app, name="comparison")
app.command("compare", cls=ExitOneOnUsageError)(compare_command)
app.add_typer(export_app, name="export")
app.add_typer(live_app, name="live")


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _ensure_embedded_schema(settings: Settings) -> None:
    """The embedded SQLite default migrates itself; PostgreSQL needs `shipwise migrate`."""
    if settings.is_sqlite:
        import logging

        from server.migrate import upgrade

        migrated = upgrade(settings.database_url)
        if migrated.applied:
            logging.getLogger("shipwise.migrate").info(
                "database migrated", extra={"head": migrated.head, "applied": migrated.applied}
            )


@app.command()
def migrate() -> None:
    """Upgrade the configured database to the newest schema."""
    from server.migrate import upgrade

    typer.echo(upgrade(get_settings().database_url).summary())


UVICORN_OPTIONS: dict[str, Any] = {
    "log_config": None,
    "lifespan": "on",
    # Progress snapshots are ~100-byte frames sent to every subscriber: compressing each one
    # cost more CPU than it saved bytes, on both ends.
    "ws_per_message_deflate": False,
    # An idle keep-alive connection stays open well past the clients' own expiry (httpx's 5 s,
    # the SDK's and the CLI's; a load balancer's 60 s): at uvicorn's default of 5 s the server
    # closed connections a client was reusing at that moment, and the client's request was
    # reset (`ReadError`: 4 in 33,313 reads in bench/soak.py).
    "timeout_keep_alive": 75,
}


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to bind.")] = 8000,
    demo: Annotated[
        bool, typer.Option("--demo", help="Seed a demo workspace and print how to use it.")
    ] = False,
    workers: Annotated[
        int,
        typer.Option(min=1, help="API processes on the one port (uvicorn's workers; needs Redis)."),
    ] = 1,
) -> None:
    """Serve the GraphQL API (GraphiQL at /graphql)."""
    import uvicorn

    from server.app import create_app
    from server.cli.banner import BannerServer, demo_banner, serve_banner
    from server.logs import configure_logging

    settings = get_settings()
    configure_logging(settings.log_level)
    if workers > 1 and not settings.redis_url:
        _fail(
            "--workers needs SHIPWISE_REDIS_URL (and PostgreSQL): without Redis, jobs and "
            "events live inside one process"
        )
    _ensure_embedded_schema(settings)
    banner = serve_banner
    agent = None
    if demo:
        from server.cli.demo_agent import run_agent

        seeded = asyncio.run(_seed_demo(settings))
        banner = partial(demo_banner, seeded)
        agent = partial(run_agent, token=seeded.token)
    if workers > 1:
        _serve_workers(host, port, workers, banner)
        return
    config = uvicorn.Config(
        create_app(settings, tune_gc=True), host=host, port=port, **UVICORN_OPTIONS
    )
    BannerServer(config, banner, after_start=agent).run()


def _serve_workers(host: str, port: int, workers: int, banner: Callable[[str], str]) -> None:
    """uvicorn's supervisor: `workers` processes accept on one socket bound here; each builds
    the app from the environment (`server.app:create_served_app`)."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(
        "server.app:create_served_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        **UVICORN_OPTIONS,
    )
    sock = config.bind_socket()
    bound = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    sys.stdout.write(banner(f"http://{shown}:{bound}"))
    sys.stdout.flush()
    Multiprocess(config, sockets=[sock]).run()


WORKER_NICE = 10
"""`shipwise worker`'s default niceness increment: on a box it shares with `shipwise serve`,
the API's reads get a core before the workers' dispatch and finalization do."""


def _lower_priority(increment: int) -> None:
    """On Linux a niceness is per thread and a new thread inherits its creator's: this thread
    is lowered first, so every thread the worker starts runs at it, and then any thread
    already running (a library's pool started at import) is set to the same."""
    os.nice(increment)
    lowered = os.getpriority(os.PRIO_PROCESS, 0)
    tasks = "/proc/self/task"
    for tid in os.listdir(tasks) if os.path.isdir(tasks) else ():
        os.setpriority(os.PRIO_PROCESS, int(tid), lowered)


@app.command()
def worker(
    nice: Annotated[
        int,
        typer.Option(
            min=0,
            max=19,
            help="Lower this worker's CPU priority by N (os.nice) so a `shipwise serve` on the "
            "same host answers first; 0 leaves it as started.",
        ),
    ] = WORKER_NICE,
) -> None:
    """Run an arq worker with every job (needs SHIPWISE_REDIS_URL)."""
    if nice:
        _lower_priority(nice)
    from server.logs import configure_logging

    settings = get_settings()
    configure_logging(settings.log_level)
    if not settings.redis_url:
        _fail("SHIPWISE_REDIS_URL is not set: without Redis, jobs run inside `shipwise serve`")
    # jobs.main, not server.app: a worker needs no GraphQL schema, routes or portal, and
    # each `shipwise worker` start paid for them (5.5 s of CPU against 3.6 s at load 10-14;
    # docs/architecture.md allows this one import of jobs outside server/app.py).
    from jobs.main import run as run_jobs

    run_jobs(settings)


@workspace_app.command("create")
def workspace_create(
    name: str,
    owner: Annotated[str, typer.Option(help="The owner member's name.")] = "owner",
) -> None:
    """Create a workspace; the owner's API token is printed alone on the last line."""
    from server.errors import ShipwiseError

    _ensure_embedded_schema(get_settings())
    try:
        workspace_id, token = asyncio.run(_create_workspace(get_settings(), name, owner))
    except ShipwiseError as exc:
        _fail(exc.message)
    typer.echo(f"workspace {workspace_id} created; the owner token follows (shown once):")
    sys.stdout.write(token + "\n")


async def _seed_demo(settings: Settings) -> Demo:
    from server.cli.demo import seed
    from server.db import create_engine, create_sessionmaker, transaction
    from server.security import SecretBox

    engine = create_engine(settings.database_url)
    try:
        async with transaction(create_sessionmaker(engine)) as session:
            return await seed(session=session, secret_box=SecretBox(settings.resolved_secret_key()))
    finally:
        await engine.dispose()


async def _create_workspace(settings: Settings, name: str, owner: str) -> tuple[str, str]:
    from server.db import create_engine, create_sessionmaker, transaction
    from server.workspaces import service

    engine = create_engine(settings.database_url)
    try:
        async with transaction(create_sessionmaker(engine)) as session:
            workspace, issued = await service.create_workspace(
                session=session, name=name, owner_name=owner
            )
        return workspace.id, issued.secret
    finally:
        await engine.dispose()


if __name__ == "__main__":
    app()
