"""Rendering template versions in the sandbox: values, turns, strict undefined, bounded codes."""

from __future__ import annotations

from typing import Any

import pytest

from server.prompting.render import RenderFailed, TemplateCache, render_messages
from server.providers.base import DispatchError

TEMPLATE = [
    {"role": "system", "content": "Answer in {{ language | default('English') }}."},
    {"role": "user", "content": "{{ question }}{% if ctx %} (context: {{ ctx }}){% endif %}"},
]


def _render(
    messages: list[dict[str, Any]], variables: dict[str, Any], **kw: Any
) -> list[dict[str, Any]]:
    return render_messages(version_id="astv_1", messages=messages, variables=variables, **kw)


def test_renders_each_message() -> None:
    rendered = _render(
        TEMPLATE, {"question": "Why?", "ctx": {"b": 1, "a": "é"}}, cache=TemplateCache()
    )
    assert rendered == [
        {"role": "system", "content": "Answer in English."},
        # Objects and lists render as JSON, not as Python reprs.
        {"role": "user", "content": 'Why? (context: {"b": 1, "a": "é"})'},
    ]


def test_no_html_escaping() -> None:
    rendered = _render(TEMPLATE, {"question": "<b>&</b>", "ctx": None}, cache=TemplateCache())
    assert rendered[1]["content"] == "<b>&</b>"


def test_an_undefined_variable_fails_with_the_code_only() -> None:
    with pytest.raises(RenderFailed) as failure:
        _render(TEMPLATE, {"ctx": "SECRET-CASE-DATA"}, cache=TemplateCache())
    assert failure.value.code == DispatchError.TEMPLATE_RENDER_FAILED
    assert str(failure.value) == "template_render_failed"
    assert failure.value.__cause__ is None
    assert failure.value.__suppress_context__


@pytest.mark.parametrize(
    "content",
    [
        "{{ question.__class__.__mro__ }}",  # the sandbox refuses unsafe attributes
        "{{ 1 / 0 }}",
        "{{ 'x' * 100000000 }}",
        "{{ 10 ** 100000 }}",
        "{% for i in range(1000000) %}{{ i }}{% endfor %}",
        "{{ question | no_such_filter }}",
        "{% if %}",
    ],
)
def test_template_errors_become_the_code(content: str) -> None:
    with pytest.raises(RenderFailed):
        _render([{"role": "user", "content": content}], {"question": "q"}, cache=TemplateCache())


def test_a_list_of_turns_can_be_spliced_or_iterated() -> None:
    turns = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]
    messages = [
        {"role": "system", "content": "Be kind."},
        {"role": "user", "content": "{{ conversation }}"},
    ]
    assert _render(messages, {"conversation": turns}, cache=TemplateCache()) == [
        {"role": "system", "content": "Be kind."},
        *turns,
    ]
    looped = [
        {
            "role": "user",
            "content": "{% for t in turns %}{{ t.role }}: {{ t.content }}\n{% endfor %}",
        }
    ]
    assert _render(looped, {"turns": turns}, cache=TemplateCache())[0]["content"] == (
        "user: Hi\nassistant: Hello\n"
    )


def test_compiled_templates_are_cached_per_version() -> None:
    cache = TemplateCache(maxsize=2)
    values = {"question": "a", "ctx": ""}
    render_messages(version_id="v1", messages=TEMPLATE, variables=values, cache=cache)
    # The same version id reuses the compiled templates (versions never change).
    again = render_messages(
        version_id="v1",
        messages=[{"role": "user", "content": "ignored"}],
        variables={"question": "b", "ctx": ""},
        cache=cache,
    )
    assert again[1]["content"] == "b"
    render_messages(version_id="v2", messages=TEMPLATE, variables=values, cache=cache)
    render_messages(version_id="v3", messages=TEMPLATE, variables=values, cache=cache)
    assert len(cache) == 2


def test_strict_undefined_also_refuses_tests_on_missing_variables() -> None:
    with pytest.raises(RenderFailed):
        _render(TEMPLATE, {"question": "no ctx"}, cache=TemplateCache())
    optional = [{"role": "user", "content": "{{ q }}{% if ctx is defined %}!{% endif %}"}]
    assert _render(optional, {"q": "x"}, cache=TemplateCache())[0]["content"] == "x"
