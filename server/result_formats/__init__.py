"""Readers of other evaluation tools' results (docs/domain.md): each yields our run items."""
