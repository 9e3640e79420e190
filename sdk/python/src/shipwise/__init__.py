"""shipwise's Python client: evaluate your code on a shipwise dataset, gate on the decision."""

from __future__ import annotations

from shipwise import checks
from shipwise.checks import Check
from shipwise.client import Client, aevaluate, evaluate
from shipwise.errors import (
    AuthError,
    ConflictError,
    NotFoundError,
    ShipwiseError,
    TaskOutputError,
    UnreachableError,
    UnsupportedError,
    ValidationError,
)
from shipwise.policy import Guardrail, ShipPolicy
from shipwise.result import Decision, EvaluationResult

__version__ = "0.1.0"

__all__ = [
    "AuthError",
    "Check",
    "Client",
    "ConflictError",
    "Decision",
    "EvaluationResult",
    "Guardrail",
    "NotFoundError",
    "ShipPolicy",
    "ShipwiseError",
    "TaskOutputError",
    "UnreachableError",
    "UnsupportedError",
    "ValidationError",
    "aevaluate",
    "checks",
    "evaluate",
]
