"""Runs: hosted (written at a comparison's finalization) or imported, diffed item by item."""
