"""Where an export is prepared (server/traces/prepare.py): a small one on the event loop, a
large one in a pool of worker processes, so decoding and reading steps — Python, holding the
GIL — runs beside the loop rather than between its reads and writes. The pool starts with the
first large export; with no processes (or a broken pool) a large export is prepared in a
thread, as before the pool."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from server.db import utcnow
from server.traces.prepare import Prepared, Prices, prepare

INLINE_BYTES = 262_144
"""An export up to this size (decompressed) is prepared on the event loop: a worker's round
trip would cost more than it saves."""


class Preparer:
    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    async def prepare(
        self, body: bytes, media_type: str, prices: Prices, workspace_id: str
    ) -> Prepared:
        args = (body, media_type, prices, workspace_id, utcnow())
        if len(body) <= INLINE_BYTES:
            return prepare(*args)
        if self.processes > 0:
            if self._pool is None:
                # spawned, not forked: a fork of a running event loop and its threads is unsafe
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    self.processes,
                    mp_context=context,
                    initializer=_exit_with,
                    initargs=(os.getpid(),),
                )
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._pool, prepare, *args)
            except BrokenProcessPool:  # a worker died (killed): the next export starts anew
                self.close()
        return await asyncio.to_thread(prepare, *args)

    def close(self) -> None:
        """Stop the workers (at shutdown) without waiting for exports in flight."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _exit_with(parent: int) -> None:
    """A worker's start: it ends when the API process does, even one killed outright, which
    would otherwise leave it waiting for work forever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-the-api", daemon=True).start()
