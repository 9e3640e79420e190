"""Pausing Python's cyclic garbage collector while a finalization builds its rows.

Finalizing 45,000 trials allocates hundreds of thousands of objects (driver records,
tuples, dicts); each allocation burst triggers full collections that walk the whole
process heap, which measured 0.35 s of a 0.5 s read (bench/finalize.py). None of those
objects form cycles, so collecting during the finalization frees nothing; reference
counting still frees everything as usual. Pauses nest (concurrent finalizations in one
worker) and the collector is enabled again when the last one ends, unless it was off.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_resume = False


@contextmanager
def paused() -> Iterator[None]:
    """Automatic collection off for the block (and any overlapping block)."""
    global _depth, _resume
    with _lock:
        if _depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()
