"""`GET` exports, streamed: a comparison's cases, a run's items, a run diff (CSV or JSONL).

    /comparisons/{id}/cases.csv|.jsonl
    /runs/{id}/items.csv|.jsonl
    /experiments/{e}/runs/{c}/diff.csv|.jsonl?baselineRunId=…
    /datasets/{dataset or version id}/cases.csv|.jsonl

Opened with a bearer token (any role) or a signed link from `exportLink` (`?token=…`).
Everything is checked before the first byte: another workspace's id answers 404 as an
unknown one would, a bad link 403, no token 401, a diff of a run that is not completed 409 —
each a JSON body `{"errors": [{"message", "extensions": {"code"}}]}` (docs/errors.md). The
rows then stream in batches (docs/architecture.md, `server/exports/`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from server import signed_links
from server.auth import authenticate, bearer_token
from server.errors import ErrorCode, NotFound, ShipwiseError, ValidationFailed
from server.exports import comparisons, datasets, diffs, runs
from server.exports import links as export_links
from server.exports.encoding import MEDIA_TYPES, ExportFormat, encode
from server.exports.links import ExportTarget
from server.runs import diff as run_diffs
from server.runs import service as run_service
from server.state import AppState

logger = logging.getLogger("shipwise.exports")

HEADERS = {
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_STATUS = {
    ErrorCode.UNAUTHENTICATED: 401,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.CONFLICT: 409,
    ErrorCode.VALIDATION_FAILED: 400,
}
Rows = AsyncIterator[dict[str, Any]]


class _LinkRefused(ShipwiseError):
    code = ErrorCode.FORBIDDEN


def _error(error: ShipwiseError) -> JSONResponse:
    extensions = {"code": error.code.value, **error.extensions}
    body = {"data": None, "errors": [{"message": error.message, "extensions": extensions}]}
    return JSONResponse(body, status_code=_STATUS.get(error.code, 500), headers=HEADERS)


def _format(request: Request) -> ExportFormat:
    try:
        return ExportFormat(request.path_params["format"])
    except ValueError:
        raise NotFound("no such export: the format is csv or jsonl") from None


async def _workspace(request: Request, state: AppState, subject: str) -> str:
    """The caller's workspace: from the bearer token, else from the signed link."""
    bearer = bearer_token(request.headers.get("authorization"))
    link = request.query_params.get("token")
    if bearer is not None or link is None:
        async with state.sessionmaker() as session:
            actor = await authenticate(session, bearer)
        return actor.workspace_id
    try:
        grant = signed_links.verify(
            link,
            secret=state.settings.resolved_secret_key(),
            kind=export_links.KIND,
            subject=subject,
        )
    except signed_links.LinkRefused:
        raise _LinkRefused("This link is not valid or has expired.") from None
    return grant.workspace_id


def _stream(
    rows: Rows, columns: Sequence[str], export_format: ExportFormat, filename: str
) -> StreamingResponse:
    headers = {
        **HEADERS,
        "Content-Disposition": f'attachment; filename="{filename}.{export_format.value}"',
    }
    return StreamingResponse(
        _logged(encode(rows, columns, export_format), filename),
        media_type=MEDIA_TYPES[export_format],
        headers=headers,
    )


async def _logged(chunks: AsyncIterator[bytes], filename: str) -> AsyncIterator[bytes]:
    """The chunks; a failure mid-stream ends the body early (the status is sent) and is
    logged by class only."""
    try:
        async for chunk in chunks:
            yield chunk
    except Exception as exc:
        logger.error(
            "export failed mid-stream", extra={"export": filename, "error_type": type(exc).__name__}
        )
        raise


Handler = Callable[[Request, AppState, ExportFormat], Any]


def _endpoint(handler: Handler) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        state: AppState = request.app.state.shipwise
        try:
            response: Response = await handler(request, state, _format(request))
        except ShipwiseError as error:
            return _error(error)
        return response

    return endpoint


async def _comparison_cases(
    request: Request, state: AppState, export_format: ExportFormat
) -> Response:
    comparison_id = request.path_params["comparison_id"]
    workspace_id = await _workspace(
        request, state, export_links.subject(ExportTarget.COMPARISON_CASES, comparison_id)
    )
    async with state.sessionmaker() as session:
        labels = await comparisons.cohort_labels(
            session=session, workspace_id=workspace_id, comparison_id=comparison_id
        )
    rows = comparisons.comparison_rows(
        sessionmaker=state.sessionmaker, comparison_id=comparison_id, labels=labels
    )
    return _stream(rows, comparisons.COLUMNS, export_format, f"comparison-{comparison_id}-cases")


async def _run_items(request: Request, state: AppState, export_format: ExportFormat) -> Response:
    run_id = request.path_params["run_id"]
    workspace_id = await _workspace(
        request, state, export_links.subject(ExportTarget.RUN_ITEMS, run_id)
    )
    async with state.sessionmaker() as session:
        await run_service.get(session=session, workspace_id=workspace_id, run_id=run_id)
    rows = runs.run_rows(sessionmaker=state.sessionmaker, run_id=run_id)
    return _stream(rows, runs.COLUMNS, export_format, f"run-{run_id}-items")


async def _run_diff(request: Request, state: AppState, export_format: ExportFormat) -> Response:
    experiment_id = request.path_params["experiment_id"]
    candidate_id = request.path_params["run_id"]
    baseline_id = request.query_params.get("baselineRunId")
    if not baseline_id:
        raise ValidationFailed("`baselineRunId` is required", field="baselineRunId")
    workspace_id = await _workspace(
        request, state, export_links.subject(ExportTarget.RUN_DIFF, candidate_id, baseline_id)
    )
    async with state.sessionmaker() as session, session.begin():
        candidate = await run_service.get(
            session=session, workspace_id=workspace_id, run_id=candidate_id
        )
        if candidate.experiment_id != experiment_id:
            raise NotFound("run not found")
        summary = await run_diffs.diff_summary(
            session=session,
            workspace_id=workspace_id,
            candidate_run_id=candidate_id,
            baseline_run_id=baseline_id,
        )
    rows = diffs.diff_rows(sessionmaker=state.sessionmaker, summary=summary)
    return _stream(rows, diffs.COLUMNS, export_format, f"diff-{candidate_id}-{baseline_id}")


async def _dataset_cases(
    request: Request, state: AppState, export_format: ExportFormat
) -> Response:
    target_id = request.path_params["dataset_id"]
    workspace_id = await _workspace(request, state, f"dataset/{target_id}")
    async with state.sessionmaker() as session:
        version_id = await datasets.version_to_export(
            session=session, workspace_id=workspace_id, target_id=target_id
        )
    rows = datasets.case_rows(sessionmaker=state.sessionmaker, version_id=version_id)
    return _stream(rows, datasets.COLUMNS, export_format, f"dataset-{version_id}-cases")


ROUTES = [
    Route(
        "/comparisons/{comparison_id}/cases.{format}",
        _endpoint(_comparison_cases),
        methods=["GET"],
    ),
    Route("/runs/{run_id}/items.{format}", _endpoint(_run_items), methods=["GET"]),
    Route("/datasets/{dataset_id}/cases.{format}", _endpoint(_dataset_cases), methods=["GET"]),
    Route(
        "/experiments/{experiment_id}/runs/{run_id}/diff.{format}",
        _endpoint(_run_diff),
        methods=["GET"],
    ),
]
"""The export routes, mounted by `server.app`."""
