"""Each kind's content shape (pure functions): what passes, and the path each failure names."""

from __future__ import annotations

from typing import Any

import pytest

from server.assets.builtins import BUILTINS, version_rows
from server.assets.content import check_content, check_suite
from server.assets.models import AssetKind
from server.assets.versioning import content_hash
from server.errors import ValidationFailed


def _tool(name: str = "lookup", **function: Any) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": name, "parameters": {"type": "object"}, **function},
    }


def _prompt(*contents: Any) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": c} for c in contents]}


MODEL = {"connectionId": "conn_1", "model": "gpt-x", "maxOutputTokens": 256}

VALID = [
    (AssetKind.PROMPT_TEMPLATE, _prompt("Hello")),
    (
        AssetKind.PROMPT_TEMPLATE,
        {
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "{% if ctx %}{{ ctx }}{% endif %} {{ question }}"},
                {"role": "assistant", "content": "Sure."},
            ]
        },
    ),
    (AssetKind.MODEL_CONFIG, MODEL),
    (AssetKind.MODEL_CONFIG, {**MODEL, "temperature": 0, "params": {"top_p": 0.9}}),
    (AssetKind.MODEL_CONFIG, {**MODEL, "temperature": 2.0, "maxOutputTokens": 100_000}),
    (AssetKind.RUBRIC, {"text": "Is it right?", "scale": "PASS_FAIL"}),
    (AssetKind.RUBRIC, {"text": "How helpful?", "scale": "SCORE_0_1"}),
    (AssetKind.TOOL_SCHEMA, {"tools": [_tool()]}),
    (
        AssetKind.TOOL_SCHEMA,
        {
            "tools": [
                _tool("a", description="A.", strict=True),
                _tool(
                    "b",
                    parameters={
                        "$schema": "http://json-schema.org/draft-07/schema#",
                        "type": "object",
                        "properties": {"q": {"type": "string", "pattern": "^[a-z]+$"}},
                        "required": ["q"],
                    },
                ),
            ]
        },
    ),
]


@pytest.mark.parametrize(("kind", "content"), VALID, ids=lambda v: str(v)[:40])
def test_valid_content_is_accepted_unchanged(kind: AssetKind, content: dict[str, Any]) -> None:
    assert check_content(kind, content).content == content


def test_variables_are_the_undeclared_names_of_all_messages_sorted() -> None:
    content = _prompt(
        "{{ question }} {{ input.context }}",
        "{% for doc in docs %}{{ doc }}{% endfor %}{% set local = 1 %}{{ local }} {{ question }}",
    )
    assert check_content(AssetKind.PROMPT_TEMPLATE, content).variables == [
        "docs",
        "input",
        "question",
    ]
    assert check_content(AssetKind.RUBRIC, {"text": "x", "scale": "PASS_FAIL"}).variables == []


INVALID = [
    # (kind, content, the field named, words in the message)
    (AssetKind.PROMPT_TEMPLATE, [], "content", "must be an object"),
    (AssetKind.PROMPT_TEMPLATE, {}, "content.messages", "is required"),
    (AssetKind.PROMPT_TEMPLATE, {"messages": []}, "content.messages", "non-empty list"),
    (AssetKind.PROMPT_TEMPLATE, {**_prompt("x"), "extra": 1}, "content.extra", "not a known"),
    (
        AssetKind.PROMPT_TEMPLATE,
        {"messages": [{"role": "tool", "content": "x"}]},
        "content.messages[0].role",
        "system, user, assistant",
    ),
    (
        AssetKind.PROMPT_TEMPLATE,
        {"messages": [{"role": "user"}]},
        "content.messages[0].content",
        "is required",
    ),
    (
        AssetKind.PROMPT_TEMPLATE,
        {"messages": [{"role": "user", "content": "x", "name": "n"}]},
        "content.messages[0].name",
        "not a known",
    ),
    (AssetKind.PROMPT_TEMPLATE, _prompt("ok", 3), "content.messages[1].content", "string"),
    (
        AssetKind.PROMPT_TEMPLATE,
        _prompt("ok", "line one\n{{ question "),
        "content.messages[1].content",
        "is not a valid template",
    ),
    (
        AssetKind.PROMPT_TEMPLATE,
        _prompt("{% for x in y %}"),
        "content.messages[0].content",
        "(line 1)",
    ),
    (
        AssetKind.MODEL_CONFIG,
        {"model": "m", "maxOutputTokens": 1},
        "content.connectionId",
        "required",
    ),
    (AssetKind.MODEL_CONFIG, {**MODEL, "model": ""}, "content.model", "non-empty"),
    (
        AssetKind.MODEL_CONFIG,
        {**MODEL, "temperature": 2.5},
        "content.temperature",
        "between 0 and 2",
    ),
    (AssetKind.MODEL_CONFIG, {**MODEL, "temperature": True}, "content.temperature", "a number"),
    (AssetKind.MODEL_CONFIG, {**MODEL, "temperature": None}, "content.temperature", "a number"),
    (AssetKind.MODEL_CONFIG, {**MODEL, "maxOutputTokens": 0}, "content.maxOutputTokens", "1 and"),
    (
        AssetKind.MODEL_CONFIG,
        {**MODEL, "maxOutputTokens": 100_001},
        "content.maxOutputTokens",
        "100000",
    ),
    (
        AssetKind.MODEL_CONFIG,
        {**MODEL, "maxOutputTokens": 2.5},
        "content.maxOutputTokens",
        "integer",
    ),
    (AssetKind.MODEL_CONFIG, {**MODEL, "params": [1]}, "content.params", "an object"),
    (AssetKind.MODEL_CONFIG, {**MODEL, "seed": 1}, "content.seed", "not a known"),
    (AssetKind.RUBRIC, {"text": " ", "scale": "PASS_FAIL"}, "content.text", "non-empty"),
    (AssetKind.RUBRIC, {"text": "t", "scale": "1-5"}, "content.scale", "PASS_FAIL, SCORE_0_1"),
    (AssetKind.RUBRIC, {"text": "t"}, "content.scale", "is required"),
    (AssetKind.TOOL_SCHEMA, {"tools": []}, "content.tools", "non-empty list"),
    (AssetKind.TOOL_SCHEMA, {"tools": [_tool()] * 129}, "content.tools", "at most 128"),
    (
        AssetKind.TOOL_SCHEMA,
        {"tools": [{"type": "retrieval", "function": _tool()["function"]}]},
        "content.tools[0].type",
        "not a function definition",
    ),
    (
        AssetKind.TOOL_SCHEMA,
        {"tools": [_tool("has space")]},
        "content.tools[0].function.name",
        "not a function definition",
    ),
    (
        AssetKind.TOOL_SCHEMA,
        {"tools": [{"type": "function", "function": {"name": "f"}}]},
        "content.tools[0].function",
        "'parameters' is a required property",
    ),
    (
        AssetKind.TOOL_SCHEMA,
        {"tools": [_tool(extra=1)]},
        "content.tools[0].function",
        "not a function definition",
    ),
    (
        AssetKind.TOOL_SCHEMA,
        {"tools": [_tool("a"), _tool("b"), _tool("a")]},
        "content.tools[2].function.name",
        "repeats the tool name 'a'",
    ),
    (
        AssetKind.TOOL_SCHEMA,
        {"tools": [_tool(parameters={"type": "object", "properties": {"q": {"type": 3}}})]},
        "content.tools[0].function.parameters.properties.q.type",
        "is not valid JSON Schema",
    ),
    (
        AssetKind.TOOL_SCHEMA,
        {"tools": [_tool(parameters={"type": "string", "pattern": "("})]},
        "content.tools[0].function.parameters.pattern",
        "is not valid JSON Schema",
    ),
    (
        AssetKind.TOOL_SCHEMA,
        {"tools": [_tool(parameters={"$schema": "https://example.com/mine"})]},
        "content.tools[0].function.parameters.$schema",
        "draft",
    ),
    (
        AssetKind.TOOL_SCHEMA,
        {"tools": [_tool(parameters={"$schema": 5})]},
        "content.tools[0].function.parameters.$schema",
        "draft",
    ),
    (AssetKind.RUBRIC, {"text": "t", "scale": "PASS_FAIL", "x": float("nan")}, "content", "NaN"),
]


@pytest.mark.parametrize(("kind", "content", "field", "words"), INVALID, ids=lambda v: str(v)[:40])
def test_invalid_content_names_the_path(
    kind: AssetKind, content: Any, field: str, words: str
) -> None:
    with pytest.raises(ValidationFailed) as failure:
        check_content(kind, content)
    assert failure.value.extensions["field"] == field
    assert field in failure.value.message
    assert words in failure.value.message


def test_a_template_syntax_error_reports_its_line() -> None:
    with pytest.raises(ValidationFailed) as failure:
        check_content(AssetKind.PROMPT_TEMPLATE, _prompt("one\ntwo\n{{ three "))
    assert "(line 3)" in failure.value.message


def test_deeply_nested_content_is_refused_before_it_is_hashed() -> None:
    params: dict[str, Any] = {}
    inner = params
    for _ in range(40):
        inner["x"] = {}
        inner = inner["x"]
    with pytest.raises(ValidationFailed, match="nested more than 32"):
        check_content(AssetKind.MODEL_CONFIG, {**MODEL, "params": params})


def test_a_suite_is_cases_and_nothing_else() -> None:
    assert check_suite({"cases": [{"input": "x"}]}) == [{"input": "x"}]
    with pytest.raises(ValidationFailed, match="content.name"):
        check_suite({"cases": [], "name": "x"})
    with pytest.raises(ValidationFailed, match="must be a list"):
        check_suite({"cases": {}})


def test_the_hash_ignores_key_order_but_not_values() -> None:
    a = {"text": "t", "scale": "PASS_FAIL"}
    assert content_hash(a) == content_hash({"scale": "PASS_FAIL", "text": "t"})
    assert content_hash(a) != content_hash({**a, "text": "u"})


def test_every_builtin_passes_its_own_kinds_check() -> None:
    rows = version_rows()
    assert [row["asset_id"] for row in rows] == [b.id for b in BUILTINS]
    assert len({b.id for b in BUILTINS}) == len(BUILTINS)
    assert all(len(b.version_id) <= 40 for b in BUILTINS)
    prompt = next(row for row in rows if row["kind"] == "PROMPT_TEMPLATE")
    assert prompt["variables"] == ["question"]
