"""Small input checks shared by services; each failure is VALIDATION_FAILED naming the field."""

from __future__ import annotations

from server.errors import ValidationFailed


def clean_name(value: str, *, field: str = "name", max_length: int = 200) -> str:
    """A trimmed, non-empty name of at most `max_length` characters."""
    cleaned = value.strip()
    if not cleaned:
        raise ValidationFailed(f"`{field}` must not be empty", field=field)
    if len(cleaned) > max_length:
        raise ValidationFailed(f"`{field}` must be at most {max_length} characters", field=field)
    return cleaned


def check_range(value: int, *, field: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise ValidationFailed(f"`{field}` must be between {low} and {high}", field=field)
    return value
