"""The README stays true: every setting is in its table, and it opens with the two commands."""

from __future__ import annotations

from pathlib import Path

from server.settings import Settings

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_every_setting_is_documented() -> None:
    for name in Settings.model_fields:
        assert f"`SHIPWISE_{name.upper()}`" in README, name


def test_the_readme_opens_with_make_run_and_make_test() -> None:
    first_block = README.split("```sh", 1)[1].split("```", 1)[0]
    assert "make run" in first_block and "make test" in first_block


def test_where_it_gives_the_port_option_it_says_how_clients_find_the_server() -> None:
    after_port = README.split("make run PORT=8001", 1)[1][:600]
    assert "--url http://127.0.0.1:8001" in after_port
    assert "SHIPWISE_URL=http://127.0.0.1:8001" in after_port
