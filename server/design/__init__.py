"""The design tokens the server-rendered pages share with the portal (docs/architecture.md,
"One visual language").

`web/src/styles/tokens.css` is the source the portal imports; `tokens.css` here is its copy
inside the package, so an installed server has it without web/ (a test keeps the two the
same). A page puts `TOKENS_CSS` first in its `<style>` and uses the custom properties
(`var(--bad)`, `var(--verdict-regressed)`, `var(--space-3)`…) in its own rules.
"""

from __future__ import annotations

from pathlib import Path

TOKENS_CSS = (Path(__file__).with_name("tokens.css")).read_text(encoding="utf-8")
"""The custom properties only: type scale, spacing, colours, verdict and decision colours."""
