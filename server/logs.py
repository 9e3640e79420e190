"""Structured (JSON-lines) logging; callers pass facts in `extra`, never secrets or texts."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

_STANDARD_ATTRS = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message"}
_REDACTED_KEYS = ("token", "secret", "password", "authorization", "api_key", "apikey")


def _safe(key: str, value: Any) -> Any:
    return "[redacted]" if any(part in key.lower() for part in _REDACTED_KEYS) else value


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and the record's extras."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD_ATTRS and not key.startswith("_"):
                payload[key] = _safe(key, value)
        if record.exc_info and record.exc_info[0] is not None:
            # The class only: exception text can carry provider bodies or credentials.
            payload["error_type"] = record.exc_info[0].__name__
        return json.dumps(payload, default=str)


def configure_logging(level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "arq"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    # Alembic logs every plugin it sets up and every step; `shipwise.migrate` sums them up.
    logging.getLogger("alembic").setLevel(max(logging.WARNING, root.level))
