"""`python -m server.cli`: the `shipwise` command."""

from server.cli.app import app

app()
