"""Ship decisions (docs/decision.md): the one service every decision goes through.

The numbers are `stats.decision`'s (pure: criteria, outcome, power and the policy engine);
this package holds the rest of deciding: the policy a comparison registers (`policy`), a
finalized comparison's decision (`comparison`) with its judge gate (`judge_gate`), a run
diff's (`run_diff`), what a decision lets through (`approval`: the CLI gate, the sign-off),
the stored document (`document`) and its sentences (`wording`).

Its callers own their data and hand it in as plain values: finalization and labels
(`server/verdicts/ship_inputs.py`, `server/labels/evidence.py`), run diffs
(`server/runs/diff_items.py`), reports' sign-off, the CLI gate, comparisons and workspaces
(the policy). So it imports only `stats` and `server.errors`, and any of them can call it.
"""
