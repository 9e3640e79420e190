"""The collector pause around a finalization nests, and always ends."""

from __future__ import annotations

import gc

import pytest

from server.verdicts import gc_pause


def test_pauses_nest_and_the_last_one_resumes() -> None:
    assert gc.isenabled()
    with gc_pause.paused():
        assert not gc.isenabled()
        with gc_pause.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_failure_inside_still_resumes() -> None:
    with pytest.raises(RuntimeError), gc_pause.paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        with gc_pause.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
