"""The SDK from its wheel in a clean venv: the README's example runs, and an evaluation
killed midway resumes under the same idempotency key without calling the task again for
any stored trial."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.workspaces.roles import Role
from tests.sdk.helpers import (
    SDK,
    capital_cases,
    client_env,
    experiment_runs,
    run_items,
    run_python,
    sealed_dataset,
)

SCRIPTS = Path(__file__).parent / "scripts"
ABSENT = "import importlib.util as u; print([m for m in {mods} if u.find_spec(m)])"


def readme_example() -> str:
    text = (SDK / "README.md").read_text()
    section = text.split("## Five minutes", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None
    return match.group(1)


async def test_the_clean_venv_holds_no_server_dependency(
    clean_python: Path, tmp_path: Path
) -> None:
    server_modules = ("server", "sqlalchemy", "scipy", "numpy", "strawberry", "asyncpg")
    process = await asyncio.create_subprocess_exec(
        str(clean_python), "-c", ABSENT.format(mods=server_modules),
        stdout=asyncio.subprocess.PIPE, cwd=tmp_path,
    )  # fmt: skip
    out_bytes, _ = await process.communicate()
    assert out_bytes.decode().strip() == "[]"
    process = await asyncio.create_subprocess_exec(
        str(clean_python), "-c",
        "import shipwise, pathlib; print(pathlib.Path(shipwise.__file__).with_name('py.typed')"
        ".exists())",
        stdout=asyncio.subprocess.PIPE, cwd=tmp_path,
    )  # fmt: skip
    out_bytes, _ = await process.communicate()
    assert out_bytes.decode().strip() == "True"


async def test_the_readme_example_runs_from_a_clean_venv(
    backend: Backend, clean_python: Path, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    cases = capital_cases(60)
    await sealed_dataset(backend, ws, "Capital cities", cases)
    script = tmp_path / "example.py"
    script.write_text(readme_example())
    env = client_env(backend, token)
    code, out, err = await run_python(clean_python, script, env, cwd=tmp_path)
    assert code == 0, err
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    runs = await experiment_runs(backend, token, "capitals-sdk")
    assert [r["status"] for r in runs] == ["COMPLETED", "COMPLETED"]
    v2, v1 = runs[0]["id"], runs[1]["id"]
    assert lines["baseline"] == f"run {v1}"
    assert lines["candidate"] == f"run {v2} against {v1}"
    assert "Traceback" not in err

    known = {
        "France": "Paris", "Germany": "Berlin", "Italy": "Rome", "Spain": "Madrid",
        "Japan": "Tokyo", "Egypt": "Cairo", "Canada": "Ottawa", "Poland": "Warsaw",
    }  # fmt: skip
    _, items = await run_items(backend, token, v2)
    assert len(items) == 60
    for item, case in zip(items, cases, strict=True):
        country = case["input"]["country"]
        city = known.get(country) if country != "Japan" else "Kyoto"
        assert [t["output"] for t in item["trials"]] == [city or "I don't know"] * 3
        assert all(t["passed"] is (city == case["expected"]) for t in item["trials"])
        assert all(t["metrics"]["tokens"] == 12 for t in item["trials"])
    # v2 loses Japan (Kyoto) and wins nothing: one case of 60 worse
    assert float(lines["pass"].split()[-1]) == pytest.approx(-1 / 60, abs=1e-12)
    assert lines["portal"].endswith(f"/diff?candidate={v2}&baseline={v1}")
    assert lines["decision"] in ("none", "SHIP", "DONT_SHIP", "MORE_DATA", "NO_DECISION")


async def test_an_evaluation_killed_midway_resumes_without_calling_stored_trials_again(
    backend: Backend, clean_python: Path, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    cases = capital_cases(40)
    await sealed_dataset(backend, ws, "resumable", cases)
    calls = tmp_path / "calls.txt"
    calls.touch()
    args = ("resumable", "resume", "ci-build-17", str(calls))
    env = client_env(backend, token)
    first = await asyncio.create_subprocess_exec(  # its 21st call and later hang
        str(clean_python), str(SCRIPTS / "counting_eval.py"), *args, "20", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=tmp_path,
    )  # fmt: skip

    async def stored() -> int:
        runs = await experiment_runs(backend, token, "resume")
        return int(runs[0]["itemCount"]) if runs else 0

    async def progress() -> tuple[int, int]:
        return len(calls.read_text().splitlines()), await stored()

    # 20 calls go through (about the first 10 cases' two trials; which call is the 20th
    # depends on the threads), then both workers hang: 22 calls, 9 or 10 items stored
    await eventually(
        progress, until=lambda p: p[0] >= 22 and p[1] >= 9, timeout=60, what="a stuck run"
    )
    first.kill()  # SIGKILL: no clean-up of any kind
    await first.wait()
    (run,) = await experiment_runs(backend, token, "resume")
    assert run["status"] == "RUNNING" and run["idempotencyKey"] == "ci-build-17"
    _, kept = await run_items(backend, token, run["id"])
    assert 9 <= len(kept) <= 10, "the first process was killed midway"
    first_pid = int(kept[0]["trials"][0]["output"].split("@")[1])
    kept_countries = {item["input"]["country"] for item in kept}

    code, out, err = await run_python(
        clean_python, SCRIPTS / "counting_eval.py", env, *args, cwd=tmp_path
    )
    assert code == 0, err
    answer = json.loads(out.splitlines()[-1])
    assert answer["run"] == run["id"] and answer["resumed"] == len(kept)
    assert answer["calls"] == (40 - len(kept)) * 2

    logged = [line.split(" ", 1) for line in calls.read_text().splitlines()]
    by_pid: dict[int, Counter[str]] = {}
    for caller, country in logged:
        by_pid.setdefault(int(caller), Counter())[country] += 1
    second_pid = next(pid for pid in by_pid if pid != first_pid)
    assert set(by_pid) == {first_pid, second_pid}
    for country in kept_countries:  # each stored trial's call made once, by the first process
        assert by_pid[first_pid][country] == 2 and by_pid[second_pid][country] == 0
    rest = {c["input"]["country"] for c in cases} - kept_countries
    assert by_pid[second_pid] == Counter(dict.fromkeys(rest, 2))

    final, items = await run_items(backend, token, run["id"])
    assert (final["status"], final["itemCount"]) == ("COMPLETED", 40)
    for item in items:
        maker = first_pid if item["input"]["country"] in kept_countries else second_pid
        assert [t["output"] for t in item["trials"]] == [f"{item['input']['country']}@{maker}"] * 2


def ci_script() -> str:
    text = (SDK.parents[1] / "README.md").read_text()
    section = text.split("`evals/evaluate.py` calls your code", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None
    return match.group(1)


async def test_the_readme_ci_script_runs_from_a_clean_venv(
    backend: Backend, clean_python: Path, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await sealed_dataset(backend, ws, "support questions", capital_cases(20))
    (tmp_path / "evaluate.py").write_text(ci_script())
    (tmp_path / "my_app.py").write_text(
        "def answer(case):\n    return 'It is Paris.' if case['country'] == 'France' else 'No.'\n"
    )
    outputs = tmp_path / "github_output"
    env = {**client_env(backend, token), "GITHUB_RUN_ID": "4242", "GITHUB_OUTPUT": str(outputs)}
    code, _, err = await run_python(clean_python, tmp_path / "evaluate.py", env, cwd=tmp_path)
    assert code == 0, err
    (run,) = await experiment_runs(backend, token, "support-bot")
    assert outputs.read_text() == f"run={run['id']}\n"
    assert (run["status"], run["itemCount"], run["idempotencyKey"]) == (
        "COMPLETED", 20, "github-4242",
    )  # fmt: skip
    _, items = await run_items(backend, token, run["id"])
    assert [sum(t["passed"] for t in item["trials"]) for item in items] == [3] + [0] * 19


async def test_a_progress_bar_is_drawn_on_a_terminal_only(
    backend: Backend, clean_python: Path, tmp_path: Path
) -> None:
    import pty

    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await sealed_dataset(backend, ws, "progress", capital_cases(12))
    script = tmp_path / "bar.py"
    script.write_text(
        "import shipwise\n"
        "shipwise.evaluate(lambda case: case['country'], 'progress', 'progress', trials=2)\n"
    )
    env = client_env(backend, token)
    code, out, err = await run_python(clean_python, script, env, cwd=tmp_path)
    assert (code, out, err) == (0, "", "")  # stderr a pipe: no bar

    leader, follower = pty.openpty()
    try:
        process = await asyncio.create_subprocess_exec(
            str(clean_python), str(script), env=env, cwd=tmp_path, stderr=follower,
            stdout=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        assert await process.wait() == 0
        os.close(follower)
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(leader)
    text = drawn.decode()
    assert "shipwise [" in text and "24/24 trials 100%" in text
