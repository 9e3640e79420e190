"""The design tokens the server-rendered pages share with the portal (docs/architecture.md,
"One visual language").

`tokens.css` here is the one file: the portal's `web/src/styles.css` imports it (Vite inlines
it into the build), and the package carries it, so an installed server has it without web/
or npm. A page puts `TOKENS_CSS` first in its `<style>` and uses the custom properties
(`var(--bad)`, `var(--verdict-regressed)`, `var(--space-3)`…) in its own rules.
"""

from __future__ import annotations

from pathlib import Path

TOKENS_CSS = (Path(__file__).with_name("tokens.css")).read_text(encoding="utf-8")
"""The custom properties only: type scale, spacing, colours, verdict and decision colours."""
