"""Fetch GraphiQL's files from the npm registry with `npm pack` (run by `make install`).

`python -m server.graphiql.fetch [DIR]` puts every file of `ASSETS` into DIR (default: the
directory the server reads), checking each against its digest. Files already there and
intact are kept. Without npm it says so and exits 0: the API works as ever, and the
GraphiQL page says how to get its files.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from server.graphiql.assets import ASSETS, DEFAULT_DIR, Asset, integrity_of

NPM_TIMEOUT_SECONDS = 300


class FetchFailed(Exception):
    """npm could not fetch a package, or a file did not match its digest."""


def intact(directory: Path) -> list[Asset]:
    """The assets present in `directory` with the right digest."""
    present = []
    for asset in ASSETS:
        path = directory / asset.name
        if path.is_file() and integrity_of(path.read_bytes()) == asset.integrity:
            present.append(asset)
    return present


def fetch(directory: Path, *, npm: str) -> list[Asset]:
    """Fetch what is missing into `directory`; the assets written."""
    wanted = [a for a in ASSETS if a not in intact(directory)]
    if not wanted:
        return []
    packages = sorted({a.package for a in wanted})
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="shipwise-graphiql-") as scratch:
        tarballs = _pack(npm, packages, Path(scratch))
        for asset in wanted:
            data = _member(tarballs[asset.package], asset.member)
            if integrity_of(data) != asset.integrity:
                raise FetchFailed(f"{asset.package} {asset.member} does not match its digest")
            partial = directory / f".{asset.name}.partial"
            partial.write_bytes(data)
            partial.replace(directory / asset.name)
    return wanted


def _pack(npm: str, packages: list[str], scratch: Path) -> dict[str, Path]:
    """`npm pack` each package into `scratch`; the tarball of each spec."""
    try:
        done = subprocess.run(
            [npm, "pack", *packages, "--pack-destination", str(scratch), "--json", "--silent"],
            cwd=scratch,
            capture_output=True,
            text=True,
            timeout=NPM_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise FetchFailed(f"npm pack did not run: {exc}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise FetchFailed(f"npm pack failed ({last})")
    try:
        packed = {
            f"{p['name']}@{p['version']}": scratch / p["filename"] for p in json.loads(done.stdout)
        }
    except (ValueError, KeyError, TypeError):
        raise FetchFailed("npm pack did not say which tarballs it wrote") from None
    for spec in packages:
        if spec not in packed or not packed[spec].is_file():
            raise FetchFailed(f"npm pack wrote no tarball for {spec}")
    return packed


def _member(tarball: Path, member: str) -> bytes:
    """One file of a package tarball, read without extracting anything to disk."""
    with tarfile.open(tarball, "r:gz") as archive:
        try:
            handle = archive.extractfile(member)
        except KeyError:
            handle = None
        if handle is None:
            raise FetchFailed(f"{tarball.name} holds no {member}")
        with handle:
            return handle.read()


def main(argv: list[str]) -> int:
    directory = Path(argv[0]) if argv else DEFAULT_DIR
    npm = shutil.which("npm")
    if npm is None:
        print(  # noqa: T201 - a command's output
            "GraphiQL: npm not found, its files are not fetched; /graphql will say how to get "
            "them (the API works without them)"
        )
        return 0
    try:
        written = fetch(directory, npm=npm)
    except FetchFailed as exc:
        print(f"GraphiQL: could not fetch its files: {exc}", file=sys.stderr)  # noqa: T201
        return 1
    if written:
        print(f"GraphiQL: fetched {len(written)} files into {directory}")  # noqa: T201
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
