"""Readers of other evaluation tools' results (SPEC §8): each yields our run items."""
