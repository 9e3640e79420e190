"""The content shape of each asset kind (docs/domain.md), checked before a version is written.

Pure functions: each raises `ValidationFailed` whose message and `field` name the path
(`content.messages[0].role`). MODEL_CONFIG's connection and EVALUATION_SUITE's cases need
the database and are checked by the services that own them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jinja2 import TemplateSyntaxError, meta
from jinja2.sandbox import SandboxedEnvironment
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped]
from jsonschema.validators import validator_for  # type: ignore[import-untyped]

from server.assets.models import AssetKind
from server.errors import ValidationFailed

MESSAGE_ROLES = ("system", "user", "assistant")
RUBRIC_SCALES = ("PASS_FAIL", "SCORE_0_1")
MAX_DEPTH = 32
MAX_TOOLS = 128
MAX_OUTPUT_TOKENS = 100_000

_TEMPLATES = SandboxedEnvironment()

TOOL_SHAPE: dict[str, Any] = {
    "type": "object",
    "required": ["type", "function"],
    "additionalProperties": False,
    "properties": {
        "type": {"const": "function"},
        "function": {
            "type": "object",
            "required": ["name", "parameters"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"},
                "description": {"type": "string"},
                "parameters": {"type": "object"},
                "strict": {"type": "boolean"},
            },
        },
    },
}
"""One function definition in the OpenAI tools format; `parameters` is checked separately."""

_TOOL_VALIDATOR = Draft202012Validator(TOOL_SHAPE)


@dataclass(frozen=True, slots=True)
class CheckedContent:
    """Content that matches its kind, and the template variables found in it."""

    content: dict[str, Any]
    variables: list[str] = field(default_factory=list)


def _fail(path: str, problem: str) -> ValidationFailed:
    return ValidationFailed(f"`{path}` {problem}", field=path)


def _object(
    value: Any, path: str, *, required: Iterable[str], optional: Iterable[str] = ()
) -> dict[str, Any]:
    """`value` as an object with every required key and no key outside the two lists."""
    if not isinstance(value, dict):
        raise _fail(path, "must be an object")
    required = tuple(required)
    allowed = set(required) | set(optional)
    for key in value:
        if key not in allowed:
            raise _fail(f"{path}.{key}", "is not a known field")
    for key in required:
        if key not in value:
            raise _fail(f"{path}.{key}", "is required")
    return value


def _text(value: Any, path: str, *, max_length: int = 100_000) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(path, "must be a non-empty string")
    if len(value) > max_length:
        raise _fail(path, f"must be at most {max_length} characters")
    return value


def _number(value: Any, path: str, *, low: float, high: float, integer: bool = False) -> None:
    # bool is an int subclass in Python, but `true` is not a number in JSON.
    numeric = isinstance(value, int) or (isinstance(value, float) and not integer)
    if isinstance(value, bool) or not numeric or not low <= value <= high:
        noun = "an integer" if integer else "a number"
        raise _fail(path, f"must be {noun} between {low:g} and {high:g}")


def _check_document(value: Any, path: str) -> None:
    """Refuse documents nested deeper than MAX_DEPTH (hashing and storage recurse) and
    non-finite numbers (NaN is not JSON, and PostgreSQL's JSONB refuses it)."""
    level = [value]
    for _ in range(MAX_DEPTH + 1):
        children: list[Any] = []
        for item in level:
            if isinstance(item, float) and not math.isfinite(item):
                raise _fail(path, "must not contain NaN or infinite numbers")
            if isinstance(item, dict):
                children.extend(item.values())
            elif isinstance(item, list):
                children.extend(item)
        if not children:
            return
        level = children
    raise _fail(path, f"is nested more than {MAX_DEPTH} levels deep")


def check_prompt_template(content: Any) -> CheckedContent:
    """`{messages: [{role, content}]}`; each content parses as a sandboxed Jinja2 template."""
    doc = _object(content, "content", required=["messages"])
    messages = doc["messages"]
    if not isinstance(messages, list) or not messages:
        raise _fail("content.messages", "must be a non-empty list")
    variables: set[str] = set()
    for index, message in enumerate(messages):
        path = f"content.messages[{index}]"
        _object(message, path, required=["role", "content"])
        if message["role"] not in MESSAGE_ROLES:
            raise _fail(f"{path}.role", f"must be one of {', '.join(MESSAGE_ROLES)}")
        source = _text(message["content"], f"{path}.content")
        try:
            parsed = _TEMPLATES.parse(source)
        except TemplateSyntaxError as exc:
            raise _fail(
                f"{path}.content",
                f"is not a valid template: {exc.message} (line {exc.lineno})",
            ) from None
        variables |= meta.find_undeclared_variables(parsed)
    return CheckedContent(doc, sorted(variables))


def check_model_config(content: Any) -> CheckedContent:
    """`{connectionId, model, temperature?, maxOutputTokens, params?}` (the connection is
    checked against the database by the service)."""
    doc = _object(
        content,
        "content",
        required=["connectionId", "model", "maxOutputTokens"],
        optional=["temperature", "params"],
    )
    _text(doc["connectionId"], "content.connectionId", max_length=40)
    _text(doc["model"], "content.model", max_length=200)
    if "temperature" in doc:
        _number(doc["temperature"], "content.temperature", low=0, high=2)
    _number(
        doc["maxOutputTokens"],
        "content.maxOutputTokens",
        low=1,
        high=MAX_OUTPUT_TOKENS,
        integer=True,
    )
    if "params" in doc and not isinstance(doc["params"], dict):
        raise _fail("content.params", "must be an object")
    return CheckedContent(doc)


def check_rubric(content: Any) -> CheckedContent:
    """`{text, scale: PASS_FAIL | SCORE_0_1}`."""
    doc = _object(content, "content", required=["text", "scale"])
    _text(doc["text"], "content.text")
    if doc["scale"] not in RUBRIC_SCALES:
        raise _fail("content.scale", f"must be one of {', '.join(RUBRIC_SCALES)}")
    return CheckedContent(doc)


def _json_path(parts: Iterable[Any]) -> str:
    """`["properties", "q", 0]` → `.properties.q[0]`."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def _tool_parameters(parameters: dict[str, Any], path: str) -> None:
    """`parameters` must be a valid JSON Schema of a draft jsonschema knows."""
    if "$schema" in parameters:
        uri = parameters["$schema"]
        if not isinstance(uri, str) or validator_for(parameters, default=None) is None:
            raise _fail(f"{path}.$schema", "is not a JSON Schema draft this service knows")
    cls = validator_for(parameters, default=Draft202012Validator)
    try:
        cls.check_schema(parameters)
    except SchemaError as exc:
        raise _fail(
            path + _json_path(exc.absolute_path), f"is not valid JSON Schema: {exc.message}"
        ) from None


def check_tool_schema(content: Any) -> CheckedContent:
    """`{tools: [OpenAI function definitions]}` with unique names and valid `parameters`."""
    doc = _object(content, "content", required=["tools"])
    tools = doc["tools"]
    if not isinstance(tools, list) or not tools:
        raise _fail("content.tools", "must be a non-empty list")
    if len(tools) > MAX_TOOLS:
        raise _fail("content.tools", f"must hold at most {MAX_TOOLS} tools")
    names: set[str] = set()
    for index, tool in enumerate(tools):
        path = f"content.tools[{index}]"
        # The shallowest error first, so the message names the outermost problem.
        error = min(
            _TOOL_VALIDATOR.iter_errors(tool),
            key=lambda e: (len(e.absolute_path), e.message),
            default=None,
        )
        if error is not None:
            raise _fail(
                path + _json_path(error.absolute_path),
                f"is not a function definition: {error.message}",
            )
        function = tool["function"]
        if function["name"] in names:
            raise _fail(f"{path}.function.name", f"repeats the tool name {function['name']!r}")
        names.add(function["name"])
        _tool_parameters(function["parameters"], f"{path}.function.parameters")
    return CheckedContent(doc)


CHECKS: Mapping[AssetKind, Callable[[Any], CheckedContent]] = {
    AssetKind.PROMPT_TEMPLATE: check_prompt_template,
    AssetKind.MODEL_CONFIG: check_model_config,
    AssetKind.RUBRIC: check_rubric,
    AssetKind.TOOL_SCHEMA: check_tool_schema,
}


def check_suite(content: Any) -> list[Any]:
    """An EVALUATION_SUITE version's `{cases: [...]}`; the cases are checked by datasets."""
    doc = _object(content, "content", required=["cases"])
    if not isinstance(doc["cases"], list):
        raise _fail("content.cases", "must be a list")
    return doc["cases"]


def check_content(kind: AssetKind, content: Any) -> CheckedContent:
    """The content of a new version of a `kind` asset, checked against its shape."""
    _check_document(content, "content")
    check = CHECKS.get(kind)
    if check is None:
        raise ValidationFailed(f"a {kind.value} version is not checked here", field="content")
    return check(content)
