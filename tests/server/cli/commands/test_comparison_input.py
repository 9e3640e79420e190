"""The `--cohort-json` shapes and the progress bar of `shipwise comparison`."""

from __future__ import annotations

import io

import pytest

from server.cli.commands.comparison_input import BadInput, cohort, comparison_input
from server.cli.commands.progress_watch import ProgressBar, ws_url


def test_seed_000_cohorts_become_the_api_shape() -> None:
    variant = cohort(
        1,
        '{"cohort_kind": "variant", "base_release_id": "rel_1",'
        ' "overrides": {"prompt_template": "av_9"}, "label": "new-refund-prompt"}',
    )
    assert variant == {
        "kind": "VARIANT",
        "baseReleaseId": "rel_1",
        "overrides": [{"role": "PROMPT_TEMPLATE", "assetVersionId": "av_9"}],
        "label": "new-refund-prompt",
    }
    assert cohort(0, '{"kind": "RELEASE", "releaseId": "rel_2"}') == {
        "kind": "RELEASE",
        "releaseId": "rel_2",
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1]", "must be a JSON object"),
        ('{"release_id": "r"}', "give `kind`"),
        ('{"kind": "RELEASE", "model": "x"}', "unknown field(s) model"),
        ('{"kind": "VARIANT", "overrides": "x"}', "`overrides` must map"),
    ],
)
def test_bad_cohorts_name_the_flag(text: str, message: str) -> None:
    with pytest.raises(BadInput) as bad:
        cohort(2, text)
    assert "--cohort-json #3" in str(bad.value) and message in str(bad.value)


def test_only_given_flags_reach_the_input() -> None:
    value = comparison_input(
        cohorts=['{"kind": "RELEASE", "releaseId": "a"}', '{"kind": "RELEASE", "releaseId": "b"}'],
        dataset="ds_1",
        dataset_version=None,
        experiment_id=None,
        trials=None,
        split="holdout",
        checks_json='{"kind": "CONTAINS"}',
        budget_cents=None,
        label=None,
        sample_size=10,
        sample_seed=3,
    )
    assert value == {
        "cohorts": [{"kind": "RELEASE", "releaseId": "a"}, {"kind": "RELEASE", "releaseId": "b"}],
        "datasetId": "ds_1",
        "split": "HOLDOUT",
        "checks": [{"kind": "CONTAINS"}],
        "sample": {"size": 10, "seed": 3},
    }


def snapshot(percent: float, status: str = "RUNNING", **fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "percent": percent,
        "doneCalls": int(percent * 3.6),
        "totalCalls": 360,
        "failedCalls": 0,
        "spentCentsSoFar": 0.5,
        "etaSeconds": 75.0,
        "status": status,
    }
    return {**base, **fields}


def test_the_bar_writes_a_line_per_tenth_when_not_on_a_terminal() -> None:
    out = io.StringIO()
    bar = ProgressBar(out)
    for percent in (0, 2, 5, 11, 12, 50):
        bar.draw(snapshot(percent))
    bar.draw(snapshot(100, "DONE", failedCalls=3))
    lines = out.getvalue().splitlines()
    assert len(lines) == 4
    assert lines[0] == "[" + "." * 30 + "]   0.0%  0/360 calls  0.5 ¢  ETA 1m15s  Running"
    assert lines[2].startswith("[" + "#" * 15 + "." * 15 + "]  50.0%  180/360 calls")
    assert lines[3] == "[" + "#" * 30 + "] 100.0%  360/360 calls  3 failed  0.5 ¢  Done"


def test_the_bar_says_a_capped_stop_in_words() -> None:
    bar = ProgressBar(io.StringIO())
    line = bar.line(snapshot(100, "DONE", stopReason="BUDGET_CAP"))
    assert line.endswith("  Stopped at the budget cap")


def test_websocket_urls_follow_the_scheme() -> None:
    assert ws_url("http://127.0.0.1:8000/") == "ws://127.0.0.1:8000/graphql"
    assert ws_url("https://shipwise.example.com") == "wss://shipwise.example.com/graphql"
