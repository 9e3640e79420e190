"""The `shipwise` command's groups, built alike: help in plain text.

Typer's rich help shows every flag with a type, `--wait <bool>`, as if it took a value;
the plain help shows flags bare and options with their type (`--trials INTEGER`).
"""

from __future__ import annotations

from typing import Any

import typer


def command_group(help_text: str, **options: Any) -> typer.Typer:
    """A group of commands (`shipwise comparison …`) that shows its help without a subcommand."""
    return typer.Typer(no_args_is_help=True, rich_markup_mode=None, help=help_text, **options)
