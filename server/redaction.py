"""Redaction of personal data and secrets from text taken out of traces (docs/traces.md).

Built-in kinds, applied in this order so a longer shape is never read as a shorter one:
API keys, emails, IP addresses, card numbers (13-19 digits passing the Luhn check), phone
numbers (7-15 digits with a `+`, brackets or at least two separators, not a date). Then the
workspace's and the request's own patterns. Each match becomes a placeholder such as
`[email]`; the count of matches is what callers report as "redacted". Pure: no I/O.

Patterns given by users are Python regular expressions, checked before use: at most
`MAX_PATTERNS`, each at most `MAX_PATTERN_LENGTH` characters, compiling, not matching the
empty string, and without a quantified group that is itself quantified (the shape of
catastrophic backtracking, e.g. `(a+)+`).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial

from server.errors import ValidationFailed

MAX_PATTERNS = 20
MAX_PATTERN_LENGTH = 200


class Redaction(StrEnum):
    EMAIL = "EMAIL"
    PHONE = "PHONE"
    CARD_NUMBER = "CARD_NUMBER"
    API_KEY = "API_KEY"
    IP_ADDRESS = "IP_ADDRESS"


_API_KEY = re.compile(
    r"\b(?:sk|pk|rk)-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_]{16,}"  # OpenAI, Anthropic, Stripe
    r"|\bAKIA[0-9A-Z]{16}\b"  # AWS access key id
    r"|\bgh[pousr]_[A-Za-z0-9]{30,}"  # GitHub
    r"|\bxox[abprs]-[A-Za-z0-9-]{10,}"  # Slack
    r"|\bAIza[0-9A-Za-z_-]{35}"  # Google
    r"|\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"  # a JWT
    r"|\bsw_[A-Za-z0-9_-]{20,}"  # a shipwise token
)
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_IPV4 = re.compile(r"(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}"
                   r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\d.])")  # fmt: skip
_IPV6 = re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])")
_CARD = re.compile(r"(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])")
_PHONE = re.compile(
    r"(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,5}(?:[ .-]\d{2,5}){0,4}(?!\w)"
)
_DATE = re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}")
_NESTED_QUANTIFIER = re.compile(r"\((?:[^()\\]|\\.)*[+*}]\)\s*(?:[+*]|\{\d*,)")


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum every payment card number passes."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _is_card(match: str) -> bool:
    digits = re.sub(r"\D", "", match)
    return 13 <= len(digits) <= 19 and luhn_valid(digits)


def _is_ipv6(match: str) -> bool:
    try:
        ipaddress.IPv6Address(match)
    except ValueError:
        return False
    return True


def _is_phone(match: str) -> bool:
    digits = sum(char.isdigit() for char in match)
    separators = len(re.findall(r"[ .-]", match))
    shaped = match.startswith(("+", "(")) or separators >= 2
    return 7 <= digits <= 15 and shaped and _DATE.fullmatch(match) is None


@dataclass(frozen=True, slots=True)
class _Rule:
    pattern: re.Pattern[str]
    placeholder: str
    accept: Callable[[str], bool] | None = None


_BUILT_IN: dict[Redaction, list[_Rule]] = {
    Redaction.API_KEY: [_Rule(_API_KEY, "[api_key]")],
    Redaction.EMAIL: [_Rule(_EMAIL, "[email]")],
    Redaction.IP_ADDRESS: [_Rule(_IPV4, "[ip]"), _Rule(_IPV6, "[ip]", _is_ipv6)],
    Redaction.CARD_NUMBER: [_Rule(_CARD, "[card]", _is_card)],
    Redaction.PHONE: [_Rule(_PHONE, "[phone]", _is_phone)],
}
ORDER = (
    Redaction.API_KEY,
    Redaction.EMAIL,
    Redaction.IP_ADDRESS,
    Redaction.CARD_NUMBER,
    Redaction.PHONE,
)


def check_patterns(patterns: Sequence[str], *, field: str) -> list[re.Pattern[str]]:
    """The compiled patterns; VALIDATION_FAILED naming `field[i]` for one that cannot be used."""
    if len(patterns) > MAX_PATTERNS:
        raise ValidationFailed(f"`{field}` holds at most {MAX_PATTERNS} patterns", field=field)
    compiled = []
    for index, text in enumerate(patterns):
        where = f"{field}[{index}]"
        if not text or len(text) > MAX_PATTERN_LENGTH:
            raise ValidationFailed(
                f"`{where}` must be 1 to {MAX_PATTERN_LENGTH} characters", field=where
            )
        if _NESTED_QUANTIFIER.search(text):
            raise ValidationFailed(
                f"`{where}` repeats a repeated group, which can take forever to match",
                field=where,
            )
        try:
            pattern = re.compile(text)
        except re.error as error:
            raise ValidationFailed(
                f"`{where}` is not a regular expression: {error.msg}", field=where
            ) from None
        if pattern.fullmatch(""):
            raise ValidationFailed(f"`{where}` matches empty text", field=where)
        compiled.append(pattern)
    return compiled


@dataclass(slots=True)
class Redactor:
    """Replaces what the chosen kinds and patterns match; counts the replacements."""

    kinds: Iterable[Redaction] = ()
    patterns: Sequence[re.Pattern[str]] = ()
    count: int = 0
    _rules: list[_Rule] = field(default_factory=list)

    def __post_init__(self) -> None:
        chosen = set(self.kinds)
        self._rules = [rule for kind in ORDER if kind in chosen for rule in _BUILT_IN[kind]]
        self._rules += [_Rule(pattern, "[redacted]") for pattern in self.patterns]

    @property
    def active(self) -> bool:
        return bool(self._rules)

    def text(self, text: str) -> str:
        for rule in self._rules:
            text = rule.pattern.sub(partial(self._replace, rule=rule), text)
        return text

    def _replace(self, match: re.Match[str], *, rule: _Rule) -> str:
        if rule.accept is not None and not rule.accept(match.group(0)):
            return match.group(0)
        self.count += 1
        return rule.placeholder
