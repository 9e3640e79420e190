"""Roles and the lowest role each kind of action needs (SPEC §2)."""

from __future__ import annotations

from enum import StrEnum


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


_RANKS = {Role.VIEWER: 0, Role.MEMBER: 1, Role.ADMIN: 2, Role.OWNER: 3}

PRIVILEGED_ROLES = frozenset({Role.ADMIN, Role.OWNER})
"""Changing or removing a member with one of these roles needs an OWNER."""
