"""Rendering a PROMPT_TEMPLATE version's messages in the Jinja2 sandbox.

Undefined variables fail (StrictUndefined) and every template error becomes the bounded code
`template_render_failed`: template and exception texts can hold case data, so none escapes.
An object or list value renders as JSON. A message whose whole content is one variable
(`{{ turns }}`) holding a list of `{role, content}` turns is replaced by those turns.

A message that is plain substitution — text and `{{ name }}` only — is rendered by joining
its pieces, without Jinja's context machinery (a tenth of the dispatch worker's CPU,
docs/benchmarks.md "Dispatch at the physical limit"), to the very text Jinja renders; a
name the variables lack goes to Jinja, which raises or finds a global as ever.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from jinja2 import StrictUndefined, Template
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment

from server.providers.base import DispatchError

MAX_RENDERED_CHARS = 1_000_000
"""Far above any prompt a model takes; a larger render is a runaway template."""
MAX_EXPONENT = 1024
TURN_ROLES = ("system", "user", "assistant")

_WHOLE_VARIABLE = re.compile(r"^\{\{-?\s*([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}$")
_SUBSTITUTION = re.compile(r"\{\{[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*\}\}")
_JINJA_SYNTAX = ("{{", "{%", "{#", "}}", "%}", "#}")
_JINJA_LITERALS = frozenset({"true", "false", "none", "True", "False", "None"})
_NEWLINE = re.compile(r"\r\n|\r|\n")


class RenderFailed(Exception):
    """A template could not be rendered; carries only the bounded code."""

    code = DispatchError.TEMPLATE_RENDER_FAILED

    def __init__(self) -> None:
        super().__init__(self.code.value)


class _TooLarge(Exception):
    pass


def _finalize(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, default=str)
    return value


class _BoundedSandbox(SandboxedEnvironment):
    """The sandbox, refusing `*` and `**` results big enough to exhaust memory."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        """`left operator right`, unless the result would be huge."""
        if operator == "**" and isinstance(right, int) and right > MAX_EXPONENT:
            raise _TooLarge
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, str | list | tuple) and isinstance(times, int):
                    if len(seq) * times > MAX_RENDERED_CHARS:
                        raise _TooLarge
        return super().call_binop(context, operator, left, right)


_ENV = _BoundedSandbox(undefined=StrictUndefined, autoescape=False, finalize=_finalize)


@dataclass(frozen=True, slots=True)
class _Plain:
    """A plain-substitution template: literal texts between variable names (texts first and
    last, so `len(texts) == len(names) + 1`), as Jinja's lexer leaves the texts."""

    texts: tuple[str, ...]
    names: tuple[str, ...]

    def render(self, variables: Mapping[str, Any]) -> str | None:
        """The text Jinja renders, or None where a name is not among `variables`."""
        pieces = [self.texts[0]]
        for name, text in zip(self.names, self.texts[1:], strict=True):
            if name not in variables:
                return None
            pieces.append(str(_finalize(variables[name])))
            pieces.append(text)
        return "".join(pieces)


def _plain(source: str) -> _Plain | None:
    """`source` as plain substitution, or None when it needs Jinja."""
    parts = _SUBSTITUTION.split(source)
    texts, names = parts[0::2], parts[1::2]
    if any(marker in text for text in texts for marker in _JINJA_SYNTAX):
        return None
    if any(name in _JINJA_LITERALS for name in names):
        return None
    # Jinja's lexer writes every newline as "\n" and drops one at the very end.
    texts = [_NEWLINE.sub("\n", text) for text in texts]
    if texts[-1].endswith("\n"):
        texts[-1] = texts[-1][:-1]
    return _Plain(tuple(texts), tuple(names))


@dataclass(frozen=True, slots=True)
class _Compiled:
    role: str
    template: Template
    plain: _Plain | None
    """The template as plain substitution, where it is one."""
    splice: str | None
    """The variable whose list of turns replaces this message, if its content is just it."""

    def render(self, variables: Mapping[str, Any]) -> str:
        if self.plain is not None:
            text = self.plain.render(variables)
            if text is not None:
                return text
        return self.template.render(variables)


def _compile(messages: Sequence[Mapping[str, Any]]) -> list[_Compiled]:
    compiled = []
    for message in messages:
        source = str(message["content"])
        whole = _WHOLE_VARIABLE.match(source.strip())
        compiled.append(
            _Compiled(
                str(message["role"]),
                _ENV.from_string(source),
                _plain(source),
                whole.group(1) if whole else None,
            )
        )
    return compiled


class TemplateCache:
    """Compiled templates by asset version id (versions never change), least recent evicted."""

    def __init__(self, maxsize: int = 256) -> None:
        self._entries: LRUCache[str, list[_Compiled]] = LRUCache(maxsize=maxsize)

    def get(self, version_id: str, messages: Sequence[Mapping[str, Any]]) -> list[_Compiled]:
        """The compiled messages of `version_id`, compiling them on first use."""
        entry = self._entries.get(version_id)
        if entry is None:
            entry = _compile(messages)
            self._entries[version_id] = entry
        return entry

    def __len__(self) -> int:
        return len(self._entries)


DEFAULT_CACHE = TemplateCache()


def _turns(value: Any) -> list[dict[str, Any]] | None:
    """`value` as chat turns when it is a non-empty list of `{role, content}` objects."""
    if not isinstance(value, list) or not value:
        return None
    turns = []
    for turn in value:
        if not (
            isinstance(turn, dict)
            and turn.get("role") in TURN_ROLES
            and isinstance(turn.get("content"), str)
        ):
            return None
        turns.append({"role": turn["role"], "content": turn["content"]})
    return turns


def _render(compiled: list[_Compiled], variables: Mapping[str, Any]) -> list[dict[str, Any]]:
    rendered: list[dict[str, Any]] = []
    size = 0
    for message in compiled:
        turns = _turns(variables.get(message.splice)) if message.splice else None
        if turns is not None:
            rendered.extend(turns)
            size += sum(len(t["content"]) for t in turns)
        else:
            content = message.render(variables)
            rendered.append({"role": message.role, "content": content})
            size += len(content)
        if size > MAX_RENDERED_CHARS:
            raise _TooLarge
    return rendered


def render_messages(
    *,
    version_id: str,
    messages: Sequence[Mapping[str, Any]],
    variables: Mapping[str, Any],
    cache: TemplateCache = DEFAULT_CACHE,
) -> list[dict[str, Any]]:
    """The rendered `[{role, content}]` of a template version; raises `RenderFailed`."""
    try:
        return _render(cache.get(version_id, messages), variables)
    except Exception:
        # A user's template can raise anything (undefined names, sandbox refusals, division
        # by zero, type errors); the text may quote case data, so only the code leaves here.
        raise RenderFailed from None
