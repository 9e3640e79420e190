"""Reading what a sign-off recorded."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.pagination import Page, keyset_page
from server.reports.models import SignOffFollowUp


async def get_states_page(
    *, session: AsyncSession, sign_off_id: str, first: int, after: str | None
) -> Page[SignOffFollowUp]:
    """The follow-up states a sign-off saw (the sign-off is already scoped)."""
    stmt = select(SignOffFollowUp).where(SignOffFollowUp.sign_off_id == sign_off_id)
    return await keyset_page(
        session, stmt, key=SignOffFollowUp.follow_up_id, first=first, after=after
    )
