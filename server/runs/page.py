"""`GET /experiments/{experimentId}/runs/{candidateRunId}/diff?baselineRunId=…` (seed 001).

Opened with a bearer token (any member) or a signed expiring link from `diffLink`
(`&token=…`). Another workspace's runs, or an experiment that is not the candidate's,
answer 404 as an unknown id would; a tampered or expired link 403.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse

from server import signed_links
from server.auth import authenticate, bearer_token
from server.errors import Conflict, NotFound, ShipwiseError, ValidationFailed
from server.pagination import check_page_size
from server.runs import cases as case_list
from server.runs import diff as diffs
from server.runs import links
from server.runs import service as run_service
from server.runs.page_html import TABS, error_html, page_html
from server.state import AppState
from stats.movement import CaseFilter

PAGE_SIZE = 50
SECURITY_HEADERS = {
    # Self-contained: nothing may load from anywhere, and no script runs at all.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "private, no-store",
}


def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status, headers=SECURITY_HEADERS)


async def diff_page(request: Request) -> HTMLResponse:
    state: AppState = request.app.state.shipwise
    experiment_id = request.path_params["experiment_id"]
    candidate_id = request.path_params["run_id"]
    query = request.query_params
    baseline_id = query.get("baselineRunId")
    if not baseline_id:
        return _html(error_html(400, "baselineRunId is required"), 400)
    status = query.get("status", "ALL").upper()
    if status not in TABS:
        return _html(error_html(400, f"status must be one of {', '.join(TABS)}"), 400)
    link_token = query.get("token")
    try:
        workspace_id = await _workspace(request, state, link_token, candidate_id, baseline_id)
    except signed_links.LinkRefused:
        return _html(error_html(403, "This link is not valid or has expired."), 403)
    except ShipwiseError:
        return _html(error_html(401, "Sign in with an API token or open a signed link."), 401)
    try:
        size = check_page_size(int(query.get("size", PAGE_SIZE)), state.settings.max_page_size)
        epsilon = float(query["epsilon"]) if "epsilon" in query else None
        async with state.sessionmaker() as session, session.begin():
            summary = await diffs.diff_summary(
                session=session,
                workspace_id=workspace_id,
                candidate_run_id=candidate_id,
                baseline_run_id=baseline_id,
                epsilon=epsilon,
            )
            candidate = await run_service.get(
                session=session, workspace_id=workspace_id, run_id=candidate_id
            )
            if candidate.experiment_id != experiment_id:
                raise NotFound("run not found")
        async with state.sessionmaker() as session, session.begin():
            page = await case_list.diff_cases(
                session=session, summary=summary, case_filter=CaseFilter(status), first=size,
                after=query.get("after"),
            )  # fmt: skip
    except NotFound:
        return _html(error_html(404, "Not found."), 404)
    except Conflict as exc:
        return _html(error_html(409, exc.message), 409)
    except (ValidationFailed, ValueError):
        return _html(error_html(400, "A query parameter is not valid."), 400)
    base_query = {"baselineRunId": baseline_id, "status": status}
    if link_token:
        base_query["token"] = link_token
    if epsilon is not None:
        base_query["epsilon"] = repr(epsilon)
    if size != PAGE_SIZE:
        base_query["size"] = str(size)
    return _html(
        page_html(
            title="Run diff",
            summary=summary,
            cases=page.items,
            status=status,
            total=page.total,
            base_query=base_query,
            path=request.url.path,
            next_cursor=page.cursors[-1] if page.has_next and page.cursors else None,
            has_previous=page.has_previous,
        )
    )


async def _workspace(
    request: Request, state: AppState, token: str | None, candidate_id: str, baseline_id: str
) -> str:
    """The caller's workspace: from the bearer token, else from the signed link."""
    bearer = bearer_token(request.headers.get("authorization"))
    if bearer is not None or token is None:
        async with state.sessionmaker() as session:
            actor = await authenticate(session, bearer)
        return actor.workspace_id
    grant = signed_links.verify(
        token,
        secret=state.settings.resolved_secret_key(),
        kind=links.KIND,
        subject=links.subject(candidate_id, baseline_id),
    )
    return grant.workspace_id
