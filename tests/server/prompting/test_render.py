"""Rendering template versions in the sandbox: values, turns, strict undefined, bounded codes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

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


# Plain substitution (text and `{{ name }}` only) is rendered without Jinja's machinery; the
# text must be the one Jinja renders, so each case is held against a plain Jinja sandbox.
_PIECES = st.lists(
    st.one_of(
        st.sampled_from(["{{ a }}", "{{b}}", "{{  c\t}}", "{{ missing }}", "{{ range }}"]),
        st.sampled_from(["\n", "\r\n", "\r", " ", "x", "é", "}", "{", "%", "#", "{{ true }}"]),
        st.text(max_size=6),
    ),
    max_size=8,
)
_VALUES = st.one_of(
    st.text(max_size=5),
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


def _jinja(source: str, variables: dict[str, Any]) -> str | None:
    env = SandboxedEnvironment(
        undefined=StrictUndefined,
        autoescape=False,
        finalize=lambda v: (
            json.dumps(v, ensure_ascii=False, default=str) if isinstance(v, dict | list) else v
        ),
    )
    try:
        return env.from_string(source).render(variables)
    except Exception:
        return None


@settings(max_examples=200, deadline=None)
@given(pieces=_PIECES, a=_VALUES, b=_VALUES, c=_VALUES)
def test_plain_substitution_renders_what_jinja_renders(
    pieces: list[str], a: Any, b: Any, c: Any
) -> None:
    source = "".join(pieces)
    variables = {"a": a, "b": b, "c": c}
    expected = _jinja(source, variables)
    messages = [{"role": "user", "content": source}]
    try:
        rendered = _render(messages, variables, cache=TemplateCache())
    except RenderFailed:
        assert expected is None
        return
    assert rendered == [{"role": "user", "content": expected}]


def test_plain_substitution_skips_jinja_on_the_common_template() -> None:
    """The fast path is taken: a template that only substitutes never enters Jinja's render."""
    cache = TemplateCache()
    messages = [{"role": "user", "content": "Q: {{ question }}\nA:"}]
    (compiled,) = cache.get("astv_plain", messages)
    assert compiled.plain is not None
    assert _render(messages, {"question": "2+2?"}, cache=cache) == [
        {"role": "user", "content": "Q: 2+2?\nA:"}
    ]
    (looped,) = cache.get(
        "astv_loop", [{"role": "user", "content": "{% for x in xs %}{% endfor %}"}]
    )
    assert looped.plain is None
