"""Roles, the lowest role each kind of action needs (docs/domain.md), and the `Actor`: the member
a token authenticates as (`server.auth`), which every service is called with."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from server.errors import Forbidden


class Role(StrEnum):
    VIEWER = "VIEWER"
    MEMBER = "MEMBER"
    ADMIN = "ADMIN"
    OWNER = "OWNER"

    @property
    def rank(self) -> int:
        return _RANKS[self]

    def at_least(self, other: Role) -> bool:
        return self.rank >= other.rank


class TokenScope(StrEnum):
    """What a token may do: everything its member's role allows, or only write traces."""

    FULL = "FULL"
    INGEST = "INGEST"
    """`POST /v1/traces` only (docs/traces.md); refused everywhere else."""


_RANKS = {Role.VIEWER: 0, Role.MEMBER: 1, Role.ADMIN: 2, Role.OWNER: 3}

PRIVILEGED_ROLES = frozenset({Role.ADMIN, Role.OWNER})
"""Changing or removing a member with one of these roles needs an OWNER."""


@dataclass(frozen=True, slots=True)
class Actor:
    """The authenticated caller; every query is scoped to `workspace_id`."""

    workspace_id: str
    member_id: str
    token_id: str
    role: Role
    requests_per_minute: int
    scope: TokenScope = TokenScope.FULL

    def require(self, role: Role) -> None:
        """Raise FORBIDDEN unless the caller's role is at least `role`."""
        if not self.role.at_least(role):
            raise Forbidden(f"this needs the {role.value} role or higher")
