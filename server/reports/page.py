"""`GET /reports/{id}.html`: the report page, for a bearer token or a signed expiring link.

Every refusal is a small HTML page with the right status (401, 403, 404), never a 500 or a
trace. The page is self-contained: inline CSS and SVG, no script, no external asset.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Final

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import Request
from starlette.responses import HTMLResponse

from server import signed_links
from server.auth import authenticate, bearer_token
from server.db import utcnow
from server.design import TOKENS_CSS
from server.errors import NotFound, ShipwiseError, Unauthenticated
from server.reports import links, page_view
from server.reports import service as report_service
from server.reports.models import Report
from server.state import AppState
from server.verdicts import wording
from server.words import metric_name, metric_value, words
from server.workspaces.scoped import get_in_workspace

logger = logging.getLogger("shipwise.reports")

HEADERS: Final = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
}

_ENV = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=select_autoescape(["html", "j2"], default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
_ENV.filters["points"] = wording.points


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{float(value) * 100:.1f}%"


def _num(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{float(value):,.{digits}f}"


_ENV.filters["pct"] = _pct
_ENV.filters["num"] = _num
_ENV.globals["tokens_css"] = Markup(TOKENS_CSS)  # our own file, inlined as it is
_ENV.filters["words"] = words
_ENV.filters["metric_name"] = metric_name
_ENV.globals["metric_value"] = metric_value


def _refusal(status: int, title: str, message: str) -> HTMLResponse:
    html = _ENV.get_template("refusal.html.j2").render(title=title, message=message)
    return HTMLResponse(html, status_code=status, headers=HEADERS)


class LinkRefused(ShipwiseError):
    """A link that is altered, not ours, or expired."""


async def _authorized(session: AsyncSession, request: Request, report_id: str) -> Report:
    token = request.query_params.get("token")
    if token is not None:
        return await _by_link(session, request, report_id, token)
    actor = await authenticate(session, bearer_token(request.headers.get("authorization")))
    return await report_service.get(
        session=session, workspace_id=actor.workspace_id, report_id=report_id
    )


async def _by_link(session: AsyncSession, request: Request, report_id: str, token: str) -> Report:
    """The one report a signed link opens.

    The token is checked before any look-up: an altered or expired one answers 403 whatever
    the id, and a genuine one opened on any other id answers 404 whether that id exists or
    not, so a link's holder learns nothing about other reports, here or elsewhere.
    """
    state: AppState = request.app.state.shipwise
    try:
        grant = signed_links.read(
            token, secret=state.settings.resolved_secret_key(), kind=links.KIND
        )
    except signed_links.LinkExpired:
        raise LinkRefused("This link has expired. Ask a member for a new one.") from None
    except signed_links.LinkRefused:
        raise LinkRefused("This link is not valid.") from None
    if grant.subject != report_id:
        raise NotFound("report not found")
    return await get_in_workspace(session, Report, report_id, grant.workspace_id, "report")


async def report_page(request: Request) -> HTMLResponse:
    state: AppState = request.app.state.shipwise
    report_id = str(request.path_params["report_id"])
    try:
        async with state.sessionmaker() as session:
            report = await _authorized(session, request, report_id)
            view = await page_view.build(session, report, utcnow())
    except NotFound:
        return _refusal(404, "Not found", "There is no such report in your workspace.")
    except Unauthenticated:
        return _refusal(
            401, "Sign in needed", "Open this page with an API token or a signed report link."
        )
    except LinkRefused as exc:
        return _refusal(403, "Link refused", exc.message)
    except ShipwiseError as exc:
        return _refusal(403, "Refused", exc.message)
    html = _ENV.get_template("report.html.j2").render(v=view, d=view.doc)
    return HTMLResponse(html, headers=HEADERS)
