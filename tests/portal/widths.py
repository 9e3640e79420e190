"""Measuring a page at a phone's width in Chromium: words broken inside themselves, tables
wider than the screen, the first column of a scrolled table.

A word here is a whitespace-separated token of letters only (2 to 24 of them, punctuation
around it aside): "Check", "Candidate", "Baselines". Ids, URLs and numbers may wrap anywhere; a
word may not ("Che ck", one letter per line).
"""

from __future__ import annotations

from typing import Any

PHONE = {"width": 390, "height": 844}

BROKEN_WORDS = r"""() => {
  const found = [];
  const word = /^\p{L}[\p{L}\p{M}'’]*$/u;
  const clipped = (el) => {
    for (let a = el; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      const hidden = style.display === 'none' || style.visibility === 'hidden';
      if (hidden || style.clipPath !== 'none') return true;
    }
    return false;
  };
  for (const table of document.querySelectorAll('table')) {
    const name = table.getAttribute('aria-label') || table.id || 'a table';
    for (const cell of table.querySelectorAll('th, td')) {
      if (!cell.getClientRects().length || clipped(cell)) continue;
      const box = cell.getBoundingClientRect();
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest('select, .visually-hidden') || clipped(parent)) continue;
        const closed = parent.closest('details:not([open])');
        if (closed && !parent.closest('summary')) continue;
        for (const m of node.data.matchAll(/\S+/g)) {
          const lead = m[0].match(/^[^\p{L}]*/u)[0].length;
          const core = m[0].slice(lead).replace(/[^\p{L}]+$/u, '');
          if (!word.test(core) || core.length < 2 || core.length > 24) continue;
          const range = document.createRange();
          range.setStart(node, m.index + lead);
          range.setEnd(node, m.index + lead + core.length);
          const rects = [...range.getClientRects()].filter((r) => r.width > 0);
          if (rects.length > 1) {
            found.push(`${name}: "${core}" broken over ${rects.length} lines`);
          } else if (
            rects.length === 1 &&
            (rects[0].left < box.left - 1 || rects[0].right > box.right + 1)
          ) {
            found.push(`${name}: "${core}" wider than its cell`);
          }
        }
      }
    }
  }
  return [...new Set(found)].slice(0, 12);
}"""

LOST_FIRST_COLUMNS = r"""() => {
  const lost = [];
  for (const region of document.querySelectorAll('.table-scroll')) {
    const table = region.querySelector(':scope > table');
    if (!table || region.scrollWidth <= region.clientWidth + 1) continue;
    const before = region.scrollLeft;
    region.scrollLeft = region.scrollWidth;
    const left = region.getBoundingClientRect().left;
    for (const row of table.querySelectorAll(':scope > * > tr')) {
      const first = row.firstElementChild;
      if (!first || first.colSpan > 1) continue;
      // Kept: sticky, in view at the region's left edge, or (a first column wider than
      // what it may stick within) still showing most of the screen's width of itself.
      const box = first.getBoundingClientRect();
      const kept = getComputedStyle(first).position === 'sticky' &&
        (Math.abs(box.left - left) <= 1 || box.right - left >= region.clientWidth / 2);
      const name = table.getAttribute('aria-label') || 'a table';
      const at = Math.round(box.left - left);
      if (!kept) lost.push(`${name}: its first column scrolls away (at ${at} px)`);
      break;
    }
    region.scrollLeft = before;
  }
  return lost;
}"""

PAGE_WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


async def words_broken(page: Any) -> list[str]:
    """Every table's words broken inside themselves or wider than their cell."""
    found: list[str] = await page.evaluate(BROKEN_WORDS)
    return found


async def first_columns_lost(page: Any) -> list[str]:
    """Tables scrolled inside their region whose first column scrolls away with the rest."""
    lost: list[str] = await page.evaluate(LOST_FIRST_COLUMNS)
    return lost


async def page_width(page: Any) -> tuple[int, int]:
    """The page's scroll width and the window's width."""
    scroll_width, inner_width = await page.evaluate(PAGE_WIDTH)
    return int(scroll_width), int(inner_width)


async def stacked(table: Any) -> None:
    """`table` (a locator) is stacked rows: no wider than the screen, each labelled cell the
    row's whole width with its column's name beside its value."""
    box = await table.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"], f"the table is {box} wide"
    cells: list[list[Any]] = await table.evaluate(
        """(t) => [...t.querySelectorAll('tbody td[data-label]')].slice(0, 20).map((c) => [
             c.dataset.label, getComputedStyle(c, '::before').content,
             c.getBoundingClientRect().width, t.getBoundingClientRect().width])"""
    )
    assert cells, "no labelled cell"
    for label, before, width, table_width in cells:
        assert before.startswith(f'"{label}"'), f"{label}: shows {before} beside its value"
        assert width >= table_width - 2, f"{label}: {width} px of the row's {table_width}"
