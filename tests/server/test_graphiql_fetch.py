"""Fetching GraphiQL's files: every file checked against its digest, npm's failures said.

A stand-in `npm` (a small script writing the tarballs `npm pack` would) plays the registry;
the real fetch runs in `make install`, and the page test checks what it fetched.
"""

from __future__ import annotations

import io
import sys
import tarfile
from pathlib import Path

import pytest

from server.graphiql import fetch
from server.graphiql.assets import ASSETS, DEFAULT_DIR

FAKE_NPM = """\
import io, json, sys, tarfile
from pathlib import Path
args = sys.argv[1:]
if {fail!r}:
    print("npm ERR! network unreachable", file=sys.stderr)
    sys.exit(1)
destination = Path(args[args.index("--pack-destination") + 1])
packed = []
for spec in [a for a in args[1:] if not a.startswith("--") and a != str(destination)]:
    name, _, version = spec.rpartition("@")
    filename = name.lstrip("@").replace("/", "-") + "-" + version + ".tgz"
    with tarfile.open(destination / filename, "w:gz") as archive:
        for member in {members!r}.get(spec, []):
            data = b"not the real file"
            info = tarfile.TarInfo(member)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    packed.append({{"name": name, "version": version, "filename": filename}})
print(json.dumps(packed))
"""


def _fake_npm(tmp_path: Path, *, fail: bool = False) -> str:
    members: dict[str, list[str]] = {}
    for asset in ASSETS:
        members.setdefault(asset.package, []).append(asset.member)
    script = tmp_path / "npm"
    script.write_text(f"#!{sys.executable}\n" + FAKE_NPM.format(fail=fail, members=members))
    script.chmod(0o755)
    return str(script)


def test_a_file_that_does_not_match_its_digest_is_not_kept(tmp_path: Path) -> None:
    target = tmp_path / "static"
    with pytest.raises(fetch.FetchFailed, match="does not match its digest"):
        fetch.fetch(target, npm=_fake_npm(tmp_path))
    assert not [p for p in target.iterdir() if not p.name.startswith(".")]


def test_npm_failing_is_reported_with_its_last_line(tmp_path: Path) -> None:
    with pytest.raises(fetch.FetchFailed, match="network unreachable"):
        fetch.fetch(tmp_path / "static", npm=_fake_npm(tmp_path, fail=True))


def test_intact_files_are_kept_without_calling_npm(tmp_path: Path) -> None:
    installed = ASSETS[0].name
    source = DEFAULT_DIR
    if not all((source / a.name).is_file() for a in ASSETS):
        pytest.skip("GraphiQL's files are not fetched here (`make graphiql`)")
    target = tmp_path / "static"
    target.mkdir()
    for asset in ASSETS:
        (target / asset.name).write_bytes((source / asset.name).read_bytes())
    assert fetch.fetch(target, npm=str(tmp_path / "no-such-npm")) == []
    assert (target / installed).read_bytes() == (source / installed).read_bytes()


def test_without_npm_the_install_step_says_so_and_succeeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert fetch.main([str(tmp_path / "static")]) == 0
    said = capsys.readouterr().out
    assert "npm not found" in said and "/graphql" in said
    assert not (tmp_path / "static").exists()


def test_the_tarball_reader_refuses_a_missing_member(tmp_path: Path) -> None:
    tarball = tmp_path / "empty.tgz"
    with tarfile.open(tarball, "w:gz") as archive:
        info = tarfile.TarInfo("package/other.js")
        archive.addfile(info, io.BytesIO(b""))
    with pytest.raises(fetch.FetchFailed, match="holds no package/x.js"):
        fetch._member(tarball, "package/x.js")
