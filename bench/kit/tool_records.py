"""What the tools themselves recorded in the fixtures, read with json, zipfile and zstandard
directly (never through shipwise's importer), and the run diff those records imply.

`recorded_*` give `{item id: Recorded(passes, evaluator means)}` per run; `expected_diff`
applies docs/domain.md's descriptive status rules (majority flip, pass fraction beyond ε, an
evaluator mean beyond ε) to two of them.
"""

from __future__ import annotations

import gzip
import json
import struct
import zipfile
from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Any

import zstandard

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "imports"
INSPECT = FIXTURES / "inspect"
PROMPTFOO_GZ = FIXTURES / "promptfoo" / "results.json.gz"
LM_EVAL = FIXTURES / "lm-eval"
OPENAI_EVALS = FIXTURES / "openai-evals"
EPSILON = 0.01
LETTER = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}


@dataclass(frozen=True)
class Recorded:
    passes: list[bool]
    evaluators: dict[str, float]

    @property
    def fraction(self) -> float:
        return sum(self.passes) / len(self.passes)


def _member(archive: zipfile.ZipFile, path: Path, info: zipfile.ZipInfo) -> Any:
    if info.compress_type != 93:
        return json.loads(archive.read(info))
    with path.open("rb") as raw:
        raw.seek(info.header_offset)
        header = raw.read(30)
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        raw.seek(name_length + extra_length, 1)
        data = raw.read(info.compress_size)
    return json.loads(zstandard.ZstdDecompressor().stream_reader(data).read())


def inspect_samples(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the log's header, its samples) of a `.eval` or `.json` Inspect log."""
    if path.suffix == ".json":
        log = json.loads(path.read_text())
        return log, log["samples"]
    with zipfile.ZipFile(path) as archive:
        infos = {i.filename: i for i in archive.infolist()}
        header = _member(archive, path, infos["header.json"])
        samples = [_member(archive, path, i) for n, i in infos.items() if n.startswith("samples/")]
    return header, samples


def recorded_inspect(path: Path) -> dict[str, Recorded]:
    header, samples = inspect_samples(path)
    scorer = header["results"]["scores"][0]["name"]
    by_id: dict[str, list[dict[str, Any]]] = {}
    for sample in sorted(samples, key=lambda s: s["epoch"]):
        by_id.setdefault(str(sample["id"]), []).append(sample)
    return {
        item: Recorded(
            [s["scores"][scorer]["value"] == "C" for s in group],
            {
                name: mean(LETTER[s["scores"][name]["value"]] for s in group)
                for name in group[0]["scores"]
            },
        )
        for item, group in by_id.items()
    }


def promptfoo_results(folder: Path) -> Path:
    """promptfoo's results.json, unpacked from the committed gzip into `folder`."""
    path = folder / "results.json"
    path.write_bytes(gzip.decompress(PROMPTFOO_GZ.read_bytes()))
    return path


def recorded_promptfoo(path: Path, provider_label: str) -> dict[str, Recorded]:
    results = json.loads(path.read_text())["results"]["results"]
    rows = sorted(
        (r for r in results if r["provider"]["label"] == provider_label),
        key=lambda r: r["testIdx"],
    )
    by_id: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_id.setdefault(row["testCase"]["metadata"]["id"], []).append(row)
    return {
        item: Recorded([r["success"] for r in group], {"score": mean(r["score"] for r in group)})
        for item, group in by_id.items()
    }


def recorded_lm_eval(path: Path) -> dict[str, Recorded]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    first_filter = rows[0]["filter"]
    return {
        str(r["doc_id"]): Recorded([r["exact_match"] >= 1.0], {"exact_match": r["exact_match"]})
        for r in rows
        if r["filter"] == first_filter
    }


def recorded_openai_evals(path: Path) -> dict[str, Recorded]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {
        str(r["datasource_item_id"]): Recorded(
            [all(g["passed"] for g in r["results"])],
            {g["name"]: g["score"] for g in r["results"]},
        )
        for r in rows
    }


def _status(candidate: Recorded, baseline: Recorded) -> str:
    if baseline.fraction > 0.5 >= candidate.fraction:
        return "REGRESSED"
    if candidate.fraction > 0.5 >= baseline.fraction:
        return "IMPROVED"
    moved = candidate.fraction - baseline.fraction
    if abs(moved) > EPSILON + 1e-9:
        return "REGRESSED" if moved < 0 else "IMPROVED"
    deltas = [
        candidate.evaluators[name] - baseline.evaluators[name]
        for name in candidate.evaluators.keys() & baseline.evaluators.keys()
    ]
    if deltas and min(deltas) < -EPSILON - 1e-9:
        return "REGRESSED"
    if deltas and max(deltas) > EPSILON + 1e-9:
        return "IMPROVED"
    return "NO_CHANGE"


def expected_diff(candidate: dict[str, Recorded], baseline: dict[str, Recorded]) -> dict[str, Any]:
    """runDiff's pass rates and regressed / improved counts for these records."""
    paired = sorted(candidate.keys() & baseline.keys())
    statuses = [_status(candidate[i], baseline[i]) for i in paired]
    return {
        "baselinePassRate": round(mean(baseline[i].fraction for i in paired), 9),
        "candidatePassRate": round(mean(candidate[i].fraction for i in paired), 9),
        "regressedCount": statuses.count("REGRESSED"),
        "improvedCount": statuses.count("IMPROVED"),
        "addedCount": len(candidate.keys() - baseline.keys()),
        "removedCount": len(baseline.keys() - candidate.keys()),
    }
